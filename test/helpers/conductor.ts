import WebSocket from 'ws';

export interface Frame {
  type: string;
  [k: string]: any;
}

/** A WebSocket client that keeps every frame and can wait for the next one that matches. */
export async function openConductor(url: string, headers: Record<string, string> = {}) {
  const ws = new WebSocket(url, { headers });
  const frames: Frame[] = [];
  let seen = 0;
  const waiters: Array<() => void> = [];
  ws.on('message', (raw) => {
    frames.push(JSON.parse(String(raw)));
    waiters.splice(0).forEach((w) => w());
  });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => reject(Object.assign(new Error(`upgrade refused: ${res.statusCode}`), { status: res.statusCode, body: JSON.parse(body || '{}') })));
    });
    ws.once('error', reject);
  });
  return {
    ws,
    frames,
    send: (frame: Record<string, unknown>) => ws.send(JSON.stringify(frame)),
    /** The next unread frame matching `pred` (frames before it are marked read). */
    async next(pred: (f: Frame) => boolean = () => true, timeoutMs = 10_000): Promise<Frame> {
      const until = Date.now() + timeoutMs;
      for (;;) {
        for (let i = seen; i < frames.length; i++) {
          if (pred(frames[i])) {
            seen = i + 1;
            return frames[i];
          }
        }
        seen = frames.length;
        if (Date.now() > until) throw new Error(`no matching frame; got ${JSON.stringify(frames)}`);
        await new Promise<void>((r) => {
          waiters.push(r);
          setTimeout(r, 200);
        });
      }
    },
    close: () => new Promise<void>((r) => (ws.readyState === ws.CLOSED ? r() : (ws.once('close', () => r()), ws.close()))),
  };
}
