import { z } from "zod";
import { databaseProvider, databaseUrl } from "./db/database-url";

// Every environment variable the app reads is parsed here and nowhere else.

/** A whole number of at least 1 with its default: a count, or a time in seconds or days. */
const atLeastOne = (fallback: number) => z.coerce.number().int().min(1).default(fallback);

/** Settings that are whole numbers of at least 1, each with its default. */
function wholeNumbers<Name extends string>(defaults: Record<Name, number>): Record<Name, ReturnType<typeof atLeastOne>> {
  const entries = Object.entries<number>(defaults).map(([name, fallback]) => [name, atLeastOne(fallback)]);
  return Object.fromEntries(entries) as Record<Name, ReturnType<typeof atLeastOne>>;
}

/** A setting that may be left out: unset, or set to "" (an empty line of an env file), it is undefined. */
function optional<Setting extends z.ZodType>(setting: Setting) {
  return setting.optional().or(z.literal("").transform(() => undefined));
}

const schema = z.object({
  DATA_DIR: z.string().min(1).default("./data"),
  // 32 bytes, base64 or hex; without it the key file DATA_DIR/secret.key is used.
  SECRET_ENCRYPTION_KEY: z.string().optional(),
  WORKSPACE_CURRENCY: z
    .string()
    .regex(/^[A-Z]{3}$/, "must be an ISO 4217 code such as USD")
    .default("USD"),
  DB_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  DB_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(100).default(5_000),
  DB_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).default(3_000),
  // Signs the session JWTs; scripts/start.ts persists one in DATA_DIR/auth.secret.
  NEXTAUTH_SECRET: z.string().min(1).optional(),
  // The deployment's public URL: sign-in redirects and the API Keys tab's snippets.
  NEXTAUTH_URL: z.url().optional(),
  // Abuse limits (docs/operations.md "Abuse limits, Redis and proxies"). Windows are fixed windows in seconds:
  // requests per API key, and failed authentications per client address and per key id.
  ...wholeNumbers({ RATE_LIMIT_PER_KEY: 600, RATE_LIMIT_WINDOW_SECONDS: 60 }),
  ...wholeNumbers({ AUTH_FAILURES_PER_IP: 30, AUTH_FAILURES_PER_KEY_ID: 100, AUTH_FAILURE_WINDOW_SECONDS: 900 }),
  // Failed sign-ins (email and password), counted over AUTH_FAILURE_WINDOW_SECONDS.
  ...wholeNumbers({ SIGN_IN_FAILURES_PER_EMAIL_AND_IP: 10, SIGN_IN_FAILURES_PER_IP: 100 }),
  // Shared limiter store; without it every process keeps its own counters in memory.
  REDIS_URL: optional(z.string().regex(/^rediss?:\/\//, "must start with redis:// or rediss://")),
  // How many reverse proxies in front of the app append to X-Forwarded-For; 0 = none,
  // the client address is the socket's and forwarded headers are ignored.
  TRUST_PROXY_HOPS: z.coerce.number().int().min(0).max(10).default(0),
  // The request logs of API keys and web forms: the newest rows each key's and each form's
  // log keeps, and for how long. Until issue 27 the count was per team, named
  // REQUEST_LOG_MAX_ROWS_PER_TEAM; that name is still read.
  ...wholeNumbers({ REQUEST_LOG_MAX_ROWS: 10_000, REQUEST_LOG_RETENTION_DAYS: 30 }),
  // Web forms (docs/web-forms.md): submissions per client address and per form in each
  // window, and challenge fetches per address; the proof-of-work's cost (PBKDF2 iterations
  // per attempt; a browser makes a few thousand attempts) and how long a challenge lives.
  ...wholeNumbers({ FORM_SUBMISSIONS_PER_IP: 20, FORM_SUBMISSIONS_PER_FORM: 1_000, FORM_CHALLENGES_PER_IP: 60 }),
  ...wholeNumbers({ FORM_RATE_LIMIT_WINDOW_SECONDS: 600 }),
  // Form builders' connections (docs/connections.md): deliveries per connection in the web
  // forms' window, and posts to a signing connection whose signature fails, per connection and
  // per address (a budget of their own: forgeries never spend the deliveries').
  ...wholeNumbers({ CONNECTION_DELIVERIES_PER_CONNECTION: 1_000 }),
  ...wholeNumbers({ CONNECTION_SIGNATURE_FAILURES_PER_CONNECTION: 1_000, CONNECTION_SIGNATURE_FAILURES_PER_IP: 20 }),
  FORM_CHALLENGE_COST: z.coerce.number().int().min(1).max(100_000).default(1_000),
  FORM_CHALLENGE_TTL_SECONDS: z.coerce.number().int().min(30).max(3_600).default(300),
  // Bearer token for GET /api/metrics (Prometheus); without it the endpoint is a 404.
  METRICS_TOKEN: optional(z.string().min(16, "must be at least 16 characters")),
  // Scheduled SQLite backups by `npm start` (docs/operations.md): every N hours into
  // BACKUP_DIR, keeping the newest BACKUP_KEEP.
  BACKUP_DIR: optional(z.string().min(1)),
  BACKUP_EVERY_HOURS: z.coerce
    .number()
    .positive()
    .max(24 * 30)
    .optional(),
  BACKUP_KEEP: atLeastOne(7),
  // How long SIGTERM waits for in-flight requests before closing what is left.
  SHUTDOWN_GRACE_SECONDS: z.coerce.number().min(0).max(300).default(8),
  // Webhooks and new-lead emails (docs/webhooks.md). Deliveries to private, loopback and
  // link-local addresses are refused unless this is "true" (tests, intranets).
  WEBHOOK_ALLOW_PRIVATE_TARGETS: z
    .enum(["true", "false", ""])
    .default("false")
    .transform((value) => value === "true"),
  // The first retry's delay; each later one is 3 times longer (lib/jobs/retry-schedule.ts).
  JOB_RETRY_BASE_SECONDS: z.coerce.number().positive().max(3600).default(30),
  // How long a claimed delivery is this process's; one whose process died is taken again after it.
  JOB_LEASE_SECONDS: z.coerce.number().int().min(15).max(3600).default(60),
  // Finished deliveries and the webhook delivery log are kept this long.
  JOB_RETENTION_DAYS: atLeastOne(30),
  // New-lead emails: smtp:// or smtps:// (user and password in the URL), and the sender.
  SMTP_URL: optional(z.string().regex(/^smtps?:\/\//, "must start with smtp:// or smtps://")),
  MAIL_FROM: z.string().min(3).default("Lead Intake <lead-intake@localhost>"),
  // How long a double opt-in confirmation link is valid (docs/consent.md), in hours.
  CONSENT_CONFIRMATION_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 90)
    .default(100),
  // Akismet's comment-check after the local spam checks (docs/spam.md "Akismet (optional)").
  // Unset, no submission leaves this server.
  AKISMET_API_KEY: optional(z.string().min(1)),
  // The site Akismet files the checks under (its "blog"); unset, NEXTAUTH_URL.
  AKISMET_BLOG: optional(z.url()),
  // Akismet's base URL: a test's fake or an egress proxy may stand in for it.
  AKISMET_ENDPOINT: z.url().default("https://rest.akismet.com"),
  // The longest a submission waits for Akismet's answer; past it the local verdict stands.
  AKISMET_TIMEOUT_MS: z.coerce.number().int().min(50).max(10_000).default(1_000),
  // `npm run bench` only: the slug of the team its "limit" row writes to, through a route that
  // skips every rule (lib/intake/intake-limit.ts). Unset, that route answers 404.
  BENCH_INTAKE_LIMIT_TEAM: optional(z.string().min(1)),
  // and the secret its requests carry in X-Bench-Secret (the bench makes a new one per run).
  BENCH_INTAKE_LIMIT_SECRET: optional(z.string().min(32)),
});

export type Env = z.infer<typeof schema> & {
  DATABASE_URL: string;
  DATABASE_PROVIDER: ReturnType<typeof databaseProvider>;
};

let cached: Env | undefined;

export function env(): Env {
  if (cached) return cached;
  const parsed = schema.safeParse({ REQUEST_LOG_MAX_ROWS: process.env.REQUEST_LOG_MAX_ROWS_PER_TEAM, ...process.env });
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid environment: ${problems.join("; ")}`);
  }
  const url = databaseUrl();
  cached = { ...parsed.data, DATABASE_URL: url, DATABASE_PROVIDER: databaseProvider(url) };
  return cached;
}
