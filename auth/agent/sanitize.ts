/**
 * SPEC 5.3: agent_context is shown in the OTP e-mail, so it is made harmless: control
 * characters stripped, one line, at most 120 characters, OTP-shaped digit runs redacted.
 */
export function sanitiseContext(raw: unknown): string | null {
  if (typeof raw !== 'string') return null;
  const text = raw
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ')
    .replace(/\b\d{4,8}\b/g, '[redacted]')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 120)
    .trim();
  return text || null;
}
