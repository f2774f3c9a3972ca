import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';

export interface Inbox {
  url: string;
  messages: Array<{ to: string[]; raw: string }>;
  /** The most recent 6-digit code (claim or sign-in) sent to an address. */
  otpFor(address: string): string | null;
  close(): Promise<void>;
}

/** A real SMTP server on loopback that keeps what it receives. */
export async function smtpInbox(): Promise<Inbox> {
  const messages: Inbox['messages'] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (c) => (raw += c));
      stream.on('end', () => {
        messages.push({ to: session.envelope.rcptTo.map((r) => r.address), raw });
        callback();
      });
    },
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    otpFor(address) {
      const m = [...messages].reverse().find((x) => x.to.includes(address));
      return m ? (/(?:claim|sign-in) code: (\d{6})/.exec(m.raw)?.[1] ?? null) : null;
    },
    close: () => new Promise((r) => server.close(() => r())),
  };
}
