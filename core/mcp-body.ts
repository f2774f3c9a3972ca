import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { jsonBody } from '../rest/json-body.ts';
import { refuseDeepJson } from './input-guard.ts';

/** A body error as body-parser reports it: rest/errors.ts maps its `type` to the answer. */
const bodyError = (status: number, message: string, type: string) => Object.assign(new Error(message), { status, statusCode: status, expose: true, type });

/**
 * The /mcp body: what every MCP client sends (`Content-Type: application/json`, a Content-Length
 * within the limit, no Content-Encoding) is read and parsed here directly, as body-parser would
 * (UTF-8 with a BOM dropped, an empty body is `{}`, only an object or an array at the top, the
 * same error types); anything else (a charset, compression, chunked) goes through `jsonBody`.
 * body-parser's type, charset and encoding negotiation, raw-body and iconv cost ~20 µs a call.
 * test/mcp-body.test.ts sends each case both ways and compares the answers.
 */
export function mcpBody(limit: number): RequestHandler {
  const general = jsonBody(limit);
  return (req: Request, res: Response, next: NextFunction) => {
    const { headers } = req;
    const length = headers['content-length'];
    if (
      headers['content-type'] !== 'application/json' ||
      headers['content-encoding'] !== undefined ||
      headers['transfer-encoding'] !== undefined ||
      length === undefined ||
      !/^\d{1,9}$/.test(length) ||
      Number(length) > limit
    ) {
      return general(req, res, next);
    }
    read(req, Number(length), next);
  };
}

function read(req: Request, expected: number, next: NextFunction): void {
  const chunks: Buffer[] = [];
  let received = 0;
  const finish = (err?: unknown) => {
    req.off('data', onData);
    req.off('end', onEnd);
    req.off('aborted', onAborted);
    req.off('error', finish);
    if (err) return next(err);
    if (received !== expected) return next(bodyError(400, 'request size did not match content length', 'request.size.invalid'));
    let body: unknown;
    try {
      body = parse((chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, received)).toString('utf8'));
    } catch (parseErr) {
      return next(bodyError(400, (parseErr as Error).message, 'entity.parse.failed'));
    }
    try {
      refuseDeepJson(body);
    } catch (depthErr) {
      return next(depthErr);
    }
    req.body = body;
    next();
  };
  const onData = (chunk: Buffer) => {
    received += chunk.length;
    chunks.push(chunk);
  };
  const onEnd = () => finish();
  const onAborted = () => finish(bodyError(400, 'request aborted', 'request.aborted'));
  req.on('data', onData);
  req.on('end', onEnd);
  req.on('aborted', onAborted);
  req.on('error', finish);
}

/** body-parser's strict JSON: a leading BOM dropped (as its UTF-8 decoder does), `{}` for nothing, an object or array only. */
function parse(text: string): unknown {
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (text.length === 0) return {};
  const first = /^[ \t\n\r]*(.)/s.exec(text)?.[1];
  if (first !== '{' && first !== '[') throw new SyntaxError('Unexpected token in JSON: an object or an array must come first');
  return JSON.parse(text);
}
