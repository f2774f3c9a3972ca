import fs from 'node:fs/promises';
import path from 'node:path';
import type { Transporter } from 'nodemailer';
import { newId } from './ids.ts';
import { lazyModule } from './lazy.ts';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  readonly kind: 'smtp' | 'outbox';
  send(mail: Mail): Promise<void>;
}

/**
 * SMTP_URL sends real mail through nodemailer. Without it, mail is written to a local
 * outbox in DATA_DIR that an operator reads with `npm run cli -- outbox` (never over the API).
 */
export function createMailer(opts: { smtpUrl: string | null; from: string; dataDir: string }): Mailer {
  const smtpUrl = opts.smtpUrl;
  if (smtpUrl) {
    // nodemailer loads with the first mail: most processes never send one.
    const transport = lazyModule(async (): Promise<Transporter> => (await import('nodemailer')).default.createTransport(smtpUrl));
    return {
      kind: 'smtp',
      async send(mail) {
        await (await transport()).sendMail({ from: opts.from, to: mail.to, subject: mail.subject, text: mail.text });
      },
    };
  }
  const dir = path.join(opts.dataDir, 'outbox');
  return {
    kind: 'outbox',
    async send(mail) {
      await fs.mkdir(dir, { recursive: true, mode: 0o700 });
      const file = path.join(dir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${newId('mail')}.json`);
      await fs.writeFile(file, JSON.stringify({ from: opts.from, ...mail, queued_at: new Date().toISOString() }, null, 2), { mode: 0o600 });
    },
  };
}

/** The outbox, newest last, for the operator's CLI. */
export async function readOutbox(dataDir: string): Promise<Array<Mail & { from: string; queued_at: string }>> {
  const dir = path.join(dataDir, 'outbox');
  const files = (await fs.readdir(dir).catch(() => [] as string[])).filter((f) => f.endsWith('.json')).sort();
  return Promise.all(files.map(async (f) => JSON.parse(await fs.readFile(path.join(dir, f), 'utf8'))));
}
