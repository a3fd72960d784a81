import type { AddressInfo } from "node:net";
import { after } from "node:test";
import { SMTPServer } from "smtp-server";

// A local SMTP sink (smtp-server) for the tests of the emails the dispatcher sends
// (assignment-email.test.ts, lib/maintenance/new-lead-reminders.test.ts): it keeps every
// message it receives, and sets SMTP_URL to itself. Call it before anything reads lib/env.ts
// (which reads the environment once per process), then useTestDatabase(). Not a test file.

/** `headers`: the message's header lines, unfolded (`Name: value`); `raw`: the message as received. */
export type ReceivedEmail = { to: string[]; subject: string; body: string; headers: string[]; raw: string };

/** Starts the sink (closed after the file); its messages, decoded, in the order received. */
export async function startSmtpSink(): Promise<ReceivedEmail[]> {
  const received: ReceivedEmail[] = [];
  const sink = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      let raw = "";
      stream.on("data", (chunk: Buffer) => (raw += chunk.toString("utf8")));
      stream.on("end", () => {
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), ...decode(raw), raw });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => sink.listen(0, "127.0.0.1", resolve));
  after(() => new Promise<void>((resolve) => sink.close(() => resolve())));
  process.env.SMTP_URL = `smtp://127.0.0.1:${(sink.server.address() as AddressInfo).port}`;
  process.env.MAIL_FROM = "Lead Intake <leads@example.test>";
  return received;
}

/** The subject (RFC 2047 encoded words undone) and the text body (quoted-printable undone) of a raw message. */
function decode(raw: string): { subject: string; body: string; headers: string[] } {
  const [head = "", ...rest] = raw.split(/\r?\n\r?\n/);
  const unfolded = head.replace(/\r?\n[ \t]+/g, " ");
  const subjectLine = unfolded.match(/^Subject: (.*)$/m)?.[1] ?? "";
  const subject = subjectLine
    .replace(/\?=\s+=\?/g, "?==?")
    .replace(/=\?utf-8\?([QB])\?([^?]*)\?=/gi, (_, encoding: string, text: string) =>
      encoding.toUpperCase() === "B" ? Buffer.from(text, "base64").toString("utf8") : quotedPrintable(text.replace(/_/g, " ")),
    );
  const qp = /^Content-Transfer-Encoding: quoted-printable/im.test(head);
  const text = rest.join("\n\n");
  return { subject, body: qp ? quotedPrintable(text.replace(/=\r?\n/g, "")) : text, headers: unfolded.split(/\r?\n/) };
}

function quotedPrintable(text: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const hex = text[i] === "=" ? text.slice(i + 1, i + 3) : "";
    if (/^[0-9A-F]{2}$/i.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else bytes.push(...Buffer.from(text[i]!, "utf8"));
  }
  return Buffer.from(bytes).toString("utf8");
}
