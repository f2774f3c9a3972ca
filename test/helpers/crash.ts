import { z } from 'zod';
import { capability } from '../../core/registry.ts';

/** A tool that fails with an unexpected error, as a bug would: `message` must stay in the log, never in an answer. */
export function crashTool(name: string, message: string) {
  return capability({
    name,
    title: 'Crash on purpose',
    description: 'Fails with an unexpected error, as a bug would. Tests use it to check that internals stay in the log.',
    input: z.strictObject({}),
    output: z.object({ never: z.boolean() }),
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    scope: 'read',
    access: 'user',
    async handler() {
      throw new Error(message);
    },
  });
}
