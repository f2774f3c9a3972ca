import { z } from 'zod';
import ipaddr from 'ipaddr.js';
import { addressAllowed } from '../../core/safe-fetch.ts';

export interface SettingDef {
  secret: boolean;
  description: string;
  schema: z.ZodType<string>;
  /** Advice about a syntactically valid value (not an error). */
  advise?: (value: string) => string | null;
}

/** Every project setting there is. A key not listed here is refused. */
export const SETTINGS = {
  openai_api_key: {
    secret: true,
    description: 'Bring-your-own key for an OpenAI-compatible model provider (transcription, extraction, the conductor). Encrypted at rest.',
    schema: z.string().min(8, 'must be at least 8 characters').max(400, 'must be at most 400 characters').regex(/^\S+$/, 'must not contain spaces'),
    advise: (v) => (v.startsWith('sk-') ? null : 'OpenAI keys start with "sk-"; keep this value only if your provider issues keys in another form'),
  },
  openai_base_url: {
    secret: false,
    description: 'Base URL of the OpenAI-compatible API; default https://api.openai.com/v1.',
    // Literal internal addresses are refused here; names are checked at every connection (core/safe-fetch.ts).
    // Loopback passes this check and is refused at use unless OUTBOUND_ALLOW_LOOPBACK.
    schema: z
      .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
      .max(2000)
      .refine((v) => {
        if (!URL.canParse(v)) return true;
        const host = new URL(v).hostname.replace(/^\[|\]$/g, '');
        return !ipaddr.isValid(host) || addressAllowed(host, true);
      }, 'must be a public address'),
  },
  openai_model: {
    secret: false,
    description: 'Chat model for evidence extraction and the conductor.',
    schema: z.string().min(1).max(100),
  },
  transcription_model: {
    secret: false,
    description: 'Speech-to-text model used for uploaded recordings.',
    schema: z.string().min(1).max(100),
  },
  interview_language: {
    secret: false,
    description: 'Default interview language as a BCP 47 tag, e.g. en or pt-BR.',
    schema: z.string().regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, 'must be a BCP 47 language tag such as en or pt-BR'),
  },
} satisfies Record<string, SettingDef>;

export type SettingKey = keyof typeof SETTINGS;
export const SETTING_KEYS = Object.keys(SETTINGS) as SettingKey[];
export const SettingKeySchema = z.enum(SETTING_KEYS as [SettingKey, ...SettingKey[]]);

export const DEFAULT_OPENAI_BASE_URL = 'https://api.openai.com/v1';

/** Secret values are shown only by their last four characters. */
export function mask(value: string): string {
  return value.length <= 8 ? '••••' : `••••${value.slice(-4)}`;
}
