import { expect } from 'vitest';
import type { ErrorEnvelope } from '../../core/errors.ts';

/** The error envelope a failed tool call returns as its JSON text (asserting it is an isError result). */
export function toolError(result: unknown): ErrorEnvelope & { status: number } {
  const r = result as { isError?: boolean; content?: Array<{ type: string; text?: string }> };
  expect(r.isError, JSON.stringify(result)).toBe(true);
  expect(r.content?.[0]?.type).toBe('text');
  return JSON.parse(r.content![0].text!);
}

/** The JSON-RPC error a request was refused with. */
export async function rpcError(p: Promise<unknown>): Promise<{ code: number; message: string; data?: any }> {
  try {
    await p;
  } catch (err) {
    return err as { code: number; message: string; data?: any };
  }
  throw new Error('expected a JSON-RPC error');
}
