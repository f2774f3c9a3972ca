import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request, Response } from 'express';
import { pinoHttp } from 'pino-http';
import { pinoOf, redactText, type Logger } from '../core/logger.ts';

const pathOf = (req: IncomingMessage) => (req as Request).originalUrl ?? req.url ?? '';

/**
 * One access-log record per response, after `requestId`:
 * `{"level":"info","requestId":"req_…","method":"GET","path":"/api/…","status":200,"duration_ms":3,"msg":"GET /api/… 200"}`.
 * Secret query values are redacted from the path; no headers are logged. Health checks log
 * at debug, 500 at error, other 5xx at warn. `req.log` carries the request id for handlers that want it.
 */
export function accessLog(log: Logger) {
  const record = (req: IncomingMessage, res: ServerResponse, duration: number) => ({
    method: req.method,
    path: redactText(pathOf(req)),
    status: res.statusCode,
    duration_ms: duration,
    // A known 5xx (a provider or dependency down) says why, as the error handler left it.
    ...(res as Response).locals?.failure,
  });
  return pinoHttp({
    logger: pinoOf(log),
    genReqId: (req) => (req as Request).requestId,
    customAttributeKeys: { reqId: 'requestId' },
    quietReqLogger: true,
    quietResLogger: true,
    customLogLevel: (req, res, err) => {
      if (pathOf(req).split('?')[0] === '/api/health') return 'debug';
      if (err || res.statusCode === 500) return 'error';
      // 502/503/504 are expected answers (a provider or dependency is down), already explained in the body.
      return res.statusCode > 500 ? 'warn' : 'info';
    },
    customSuccessObject: (req, res, val: { responseTime: number }) => record(req, res, val.responseTime),
    // The error itself is logged by the error handler with the same requestId.
    customErrorObject: (req, res, _err, val: { responseTime: number }) => record(req, res, val.responseTime),
    customSuccessMessage: (req, res) => `${req.method} ${redactText(pathOf(req)).split('?')[0]} ${res.statusCode}${res.writableEnded ? '' : ' (aborted)'}`,
    customErrorMessage: (req, res) => `${req.method} ${redactText(pathOf(req)).split('?')[0]} ${res.statusCode}`,
  });
}
