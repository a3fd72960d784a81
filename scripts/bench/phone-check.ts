// The phone check before and after issue 47, in one process, interleaved: for each class of
// input, rounds of the old check (lib/leads/phone-before.fixtures.ts) and the new one
// (lib/leads/phone.ts) taken in turn, CPU µs per call, medians. Every call gets a number the
// memo of recent verdicts has not seen (as in the bench's create_lead bodies), except where a
// row says otherwise. Usage: npx tsx scripts/bench/phone-check.ts [rounds=15] [calls per round=2000]
import { getCountryCallingCode, type CountryCode } from "libphonenumber-js/max";
import examples from "libphonenumber-js/mobile/examples";
import { parsePhoneBefore } from "../../lib/leads/phone-before.fixtures";
import { parsePhone, type ParsedPhone, type PhoneContext } from "../../lib/leads/phone";

type Check = (raw: string, context?: PhoneContext) => ParsedPhone | null;
type Input = { raw: string; context?: PhoneContext };
type Row = { label: string; inputs: Input[]; callsPerInput: number };

const ROUNDS = Number(process.argv[2] ?? 15);
const CALLS = Number(process.argv[3] ?? 2000);
const COUNTRIES: CountryCode[] = ["GB", "US", "DE", "FR", "IN", "ES", "IT", "CA", "AU", "NL", "BR", "MX", "PL", "SE", "IE"];

/** Distinct mobile numbers of the countries above: each example with its last four digits counted up. */
function numbers(count: number, shape: (country: CountryCode, national: string) => Input): Input[] {
  const inputs: Input[] = [];
  for (let i = 0; inputs.length < count; i++) {
    const country = COUNTRIES[i % COUNTRIES.length]!;
    const example = examples[country]!;
    const national =
      example.slice(0, -4) + String((Number(example.slice(-4)) + Math.floor(i / COUNTRIES.length)) % 10_000).padStart(4, "0");
    const input = shape(country, national);
    // Only what the old check read as a valid number, so the rows measure valid numbers.
    if (parsePhoneBefore(input.raw, input.context)) inputs.push(input);
    if (i > count * 50) throw new Error("too few valid numbers");
  }
  return inputs;
}

const international = numbers(20_000, (country, national) => ({ raw: `+${getCountryCallingCode(country)} ${national}` }));
const rows: Row[] = [
  { label: "valid, international (+44 7400 123456, 15 countries)", inputs: international, callsPerInput: 1 },
  {
    label: "valid, national with country_code (7400 123456, +44)",
    inputs: numbers(20_000, (country, national) => ({ raw: national, context: { countryCode: `+${getCountryCallingCode(country)}` } })),
    callsPerInput: 1,
  },
  {
    label: "valid, national with the team's default country",
    inputs: numbers(20_000, (country, national) => ({ raw: national, context: { defaultCountry: country } })),
    callsPerInput: 1,
  },
  {
    label: "invalid (too short, unknown calling code, too long)",
    inputs: Array.from({ length: 20_000 }, (_, i) => {
      const n = String(i).padStart(5, "0");
      return [{ raw: `+44 ${n}` }, { raw: n, context: { countryCode: "+44" } }, { raw: `+999 55${n}` }, { raw: `+1 202 555 ${n}${n}` }][
        i % 4
      ]!;
    }),
    callsPerInput: 1,
  },
  {
    // scripts/bench/bodies.ts: the create_lead rows' phone, valid or not as it comes.
    label: "the bench's create_lead phone (+44 7911 NNNNNN)",
    inputs: Array.from({ length: 20_000 }, (_, i) => ({ raw: `+44 7911 ${String(100000 + ((i * 7919) % 900000))}` })),
    callsPerInput: 1,
  },
  { label: "empty or no digits", inputs: [{ raw: "" }, { raw: "n/a" }, { raw: "   " }, { raw: "call me" }], callsPerInput: 1 },
  { label: "one create's phone and mobile_no, the same number (per create)", inputs: international, callsPerInput: 2 },
];

function cpuMicros(): number {
  const { user, system } = process.cpuUsage();
  return user + system;
}

/** CPU µs per call of `check` over the next CALLS inputs of the row, from `offset`. */
function measure(check: Check, row: Row, offset: number): number {
  const start = cpuMicros();
  for (let i = 0; i < CALLS; i++) {
    const { raw, context } = row.inputs[(offset + i) % row.inputs.length]!;
    for (let call = 0; call < row.callsPerInput; call++) check(raw, context);
  }
  return (cpuMicros() - start) / CALLS;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

console.log(`| Input (${ROUNDS} rounds of ${CALLS} calls, interleaved) | Before, µs per call | After, µs per call | After ÷ before |`);
console.log("|---|---:|---:|---:|");
for (const row of rows) {
  const before: number[] = [];
  const after: number[] = [];
  // Warm both up on inputs the rounds do not use again for a while.
  measure(parsePhoneBefore, row, row.inputs.length / 2);
  measure(parsePhone, row, row.inputs.length / 2 + CALLS);
  for (let round = 0; round < ROUNDS; round++) {
    // Each side reads numbers neither side read in this round; the order alternates.
    const offset = 2 * round * CALLS;
    if (round % 2) {
      after.push(measure(parsePhone, row, offset));
      before.push(measure(parsePhoneBefore, row, offset + CALLS));
    } else {
      before.push(measure(parsePhoneBefore, row, offset));
      after.push(measure(parsePhone, row, offset + CALLS));
    }
  }
  const [b, a] = [median(before), median(after)];
  console.log(`| ${row.label} | ${b.toFixed(2)} | ${a.toFixed(2)} | ${(a / b).toFixed(2)} |`);
}
