import type { Request, Response } from 'express';
import { isJsonContentType } from '@modelcontextprotocol/sdk/shared/mediaType.js';
import { isInitializeRequest, JSONRPCMessageSchema, SUPPORTED_PROTOCOL_VERSIONS, type JSONRPCMessage, type MessageExtraInfo } from '@modelcontextprotocol/sdk/types.js';
import type { InProcessTransport } from './mcp-transport.ts';

/** The SDK transport's cap on a batch (server/requestBody.js). */
const MAX_BATCH_SIZE = 100;

function rpcFailure(res: Response, status: number, code: number, message: string): void {
  res.status(status).json({ jsonrpc: '2.0', error: { code, message }, id: null });
}

/**
 * A stateless Streamable HTTP POST in JSON response mode, with the HTTP rules of the SDK's
 * WebStandardStreamableHTTPServerTransport (same statuses, codes and messages), answered from
 * Express's request directly instead of through a web Request/Response per call.
 * The body was parsed by the /mcp JSON middleware; a batch is answered with an array.
 * `fast` may answer a lone message itself (its JSON answer), or return null to leave it to the transport.
 */
export async function serveMcpPost(
  req: Request,
  res: Response,
  transport: InProcessTransport,
  extra: MessageExtraInfo,
  fast?: (message: JSONRPCMessage) => Promise<string> | null,
): Promise<void> {
  const accept = req.headers.accept;
  if (!accept?.includes('application/json') || !accept.includes('text/event-stream')) {
    return rpcFailure(res, 406, -32000, 'Not Acceptable: Client must accept both application/json and text/event-stream');
  }
  if (!isJsonContentType(req.headers['content-type'])) {
    return rpcFailure(res, 415, -32000, 'Unsupported Media Type: Content-Type must be application/json');
  }
  const body: unknown = req.body;
  if (body === undefined) return rpcFailure(res, 400, -32700, 'Parse error: Invalid JSON');
  const batch = Array.isArray(body);
  if (batch && body.length > MAX_BATCH_SIZE) {
    return rpcFailure(res, 400, -32600, `Invalid Request: Batch must not exceed ${MAX_BATCH_SIZE} messages`);
  }
  const messages: JSONRPCMessage[] = [];
  for (const raw of batch ? body : [body]) {
    const parsed = JSONRPCMessageSchema.safeParse(raw);
    if (!parsed.success) return rpcFailure(res, 400, -32700, 'Parse error: Invalid JSON-RPC message');
    messages.push(parsed.data);
  }

  // Only an initialize request negotiates the version in its params; anything else may name it in the header.
  if (messages.some((m) => 'method' in m && m.method === 'initialize' && isInitializeRequest(m))) {
    if (messages.length > 1) return rpcFailure(res, 400, -32600, 'Invalid Request: Only one initialization request is allowed');
  } else {
    const version = req.headers['mcp-protocol-version'];
    if (version !== undefined && !SUPPORTED_PROTOCOL_VERSIONS.includes(version as string)) {
      return rpcFailure(
        res,
        400,
        -32000,
        `Bad Request: Unsupported protocol version: ${String(version)} (supported versions: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')})`,
      );
    }
  }

  const quick = batch ? null : fast?.(messages[0]);
  if (quick) {
    // A client that went away gets nothing, as on the transport's path (the tool's work is not cancelled there either).
    const payload = await quick;
    if (!res.destroyed) send(res, payload);
    return;
  }

  const dispatch = transport.dispatch(messages, extra);
  if (!messages.some((m) => 'method' in m && 'id' in m)) {
    res.status(202).end();
    return;
  }
  const abandon = () => dispatch.abandon();
  res.once('close', abandon);
  const answers = await dispatch.answers;
  res.off('close', abandon);
  if (res.destroyed) return;
  if (!answers.length) {
    // Every request in the batch was cancelled by the batch itself: JSON-RPC sends nothing back.
    res.status(202).end();
    return;
  }
  send(res, JSON.stringify(batch ? answers : answers[0]));
}

function send(res: Response, payload: string): void {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }).end(payload);
}
