import { z } from 'zod';
import { capability } from '../../core/registry.ts';
import { principalOf } from '../../core/context.ts';
import { AppError, NotFoundError } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import { users } from '../account/users.ts';

export const sendTestEmail = capability({
  name: 'admin.email_test',
  title: 'Send a test e-mail',
  description:
    'Sends a test message through the configured mailer (SMTP when SMTP_URL is set, else the local outbox) to `to`, or to the ' +
    "caller's own address. message_id is a reference carried in the subject, to find the message. Operators only; 6 per minute per IP.",
  input: z.strictObject({ to: z.email().max(320).optional().describe("Recipient; default the caller's own address") }),
  output: z.object({ success: z.boolean(), transport: z.enum(['smtp', 'outbox']), message_id: z.string(), to: z.string() }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  scope: 'write',
  access: 'admin',
  mcp: false,
  rateLimit: 6,
  rest: { method: 'POST', path: '/api/admin/email/test' },
  async handler(ctx, input) {
    const { mailer, config } = ctx.services;
    const [me] = await users.select(ctx.services.db.pool, 'id = $1', [principalOf(ctx).userId]);
    if (!me) throw new NotFoundError('User not found');
    const to = input.to ?? me.email;
    const messageId = newId('eml');
    try {
      await mailer.send({
        to,
        subject: `Verbatim test e-mail (${messageId})`,
        text: [
          `This is a test message sent by ${me.email} from ${ctx.services.baseUrl()} to check e-mail delivery.`,
          '',
          `Transport: ${mailer.kind}; sender: ${config.mailFrom}; reference: ${messageId}.`,
          '',
          'If you received it, claim codes and invitations will arrive too.',
        ].join('\n'),
      });
    } catch (err) {
      const e = err as { code?: string; responseCode?: number; response?: string };
      const reason = [e.code, e.responseCode, e.response].filter(Boolean).join(' ');
      ctx.log.warn('test e-mail failed', { to, code: e.code, responseCode: e.responseCode });
      throw new AppError(502, `The test e-mail could not be sent${reason ? `: ${reason.slice(0, 300)}` : ''}`, {
        code: 'send_failed',
        retryable: true,
        action: 'Check SMTP_URL (host, port, credentials, TLS) and MAIL_FROM, restart the server, then send the test again',
      });
    }
    return { success: true, transport: mailer.kind, message_id: messageId, to };
  },
});
