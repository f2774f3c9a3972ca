import {
  CallToolRequestSchema,
  CallToolResultSchema,
  ErrorCode,
  McpError,
  RELATED_TASK_META_KEY,
  type CallToolRequest,
  type CallToolResult,
  type JSONRPCMessage,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';

/**
 * What a tool call came to: a success's output and its JSON text; only the JSON text of a plain
 * object (a kept answer of a versioned read, core/answer-cache.ts); or a result sent as it is (a
 * tool's own failure).
 */
export type ToolAnswer = { output: unknown; text: string } | { json: string } | { result: CallToolResult };

export type RunTool = (params: CallToolRequest['params']) => Promise<ToolAnswer>;

/** The CallToolResult the SDK's Server is handed for an answer. */
export function toolResult(answer: ToolAnswer): CallToolResult {
  if ('result' in answer) return answer.result;
  if ('json' in answer) return { content: [{ type: 'text', text: answer.json }], structuredContent: JSON.parse(answer.json) as Record<string, unknown> };
  return { content: [{ type: 'text', text: answer.text }], structuredContent: answer.output as Record<string, unknown> };
}

const isPlainObject = (value: unknown): value is Record<string, unknown> => {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
};

/**
 * The hot message, a lone `tools/call`, answered without the SDK's Protocol and Server: the SDK
 * tries every message against the response schemas, parses the request three times, the result
 * once more, and the transport serialises the output a second time inside the answer. This takes
 * the same steps once each and writes the answer the SDK would, byte for byte (same keys, same
 * order, same error codes and messages; test/mcp-fast-call.test.ts compares the two).
 * Null when the SDK must answer: anything but a tools/call request the SDK would hand to our
 * handler as it is (bad params, task-augmented or task-related requests).
 */
export function fastToolCall(message: JSONRPCMessage, run: RunTool): Promise<string> | null {
  if (!('method' in message) || message.method !== 'tools/call' || !('id' in message)) return null;
  const parsed = CallToolRequestSchema.safeParse(message);
  if (!parsed.success) return null;
  const { params } = parsed.data;
  if (params.task !== undefined || params._meta?.[RELATED_TASK_META_KEY] !== undefined) return null;
  return answer(message.id, run(params));
}

async function answer(id: RequestId, pending: Promise<ToolAnswer>): Promise<string> {
  let answer: ToolAnswer;
  try {
    answer = await pending;
  } catch (error) {
    return errorResponse(id, error);
  }
  const plain = 'json' in answer ? answer.json : 'output' in answer && isPlainObject(answer.output) ? answer.text : null;
  if (plain !== null) {
    // The SDK's result parse keeps a plain object's keys and values as they are: its JSON is the text.
    return `{"result":{"content":[{"type":"text","text":${JSON.stringify(plain)}}],"structuredContent":${plain}},"jsonrpc":"2.0","id":${JSON.stringify(id)}}`;
  }
  // As the SDK's Server checks a tools/call result (server/index.js).
  const checked = CallToolResultSchema.safeParse(toolResult(answer));
  if (!checked.success) return errorResponse(id, new McpError(ErrorCode.InvalidParams, `Invalid tools/call result: ${checked.error.message}`));
  return JSON.stringify({ result: checked.data, jsonrpc: '2.0', id });
}

/** A failed request as the SDK's Protocol answers it (shared/protocol.js). */
function errorResponse(id: RequestId, error: unknown): string {
  const e = error as { code?: unknown; message?: string; data?: unknown };
  return JSON.stringify({
    jsonrpc: '2.0',
    id,
    error: {
      code: Number.isSafeInteger(e.code) ? e.code : ErrorCode.InternalError,
      message: e.message ?? 'Internal error',
      ...(e.data !== undefined && { data: e.data }),
    },
  });
}
