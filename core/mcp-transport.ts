import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, JSONRPCRequest, MessageExtraInfo, RequestId } from '@modelcontextprotocol/sdk/types.js';

/** One HTTP request's share of the transport: its answers, and a way to give up on them. */
export interface Dispatch {
  /** The responses to the request's JSON-RPC requests, in order; a request it cancelled itself has none. */
  answers: Promise<JSONRPCMessage[]>;
  /** The HTTP client went away: drop the pending answers and cancel their handlers. */
  abandon(): void;
}

const isRequest = (m: JSONRPCMessage): m is JSONRPCRequest => 'method' in m && 'id' in m;

/**
 * The SDK Transport a long-lived Server is connected to, in process: each HTTP request hands its
 * (already validated) messages in with `dispatch` and gets its responses back. Every client
 * numbers its requests from 1, so each request id is swapped for a process-unique one on the way
 * in and restored on the way out: concurrent calls never cross. Who is calling travels with the
 * message (`extra.authInfo`), never through the transport or the Server.
 */
export class InProcessTransport implements Transport {
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  private lastId = 0;
  private readonly pending = new Map<number, (answer: JSONRPCMessage | null) => void>();

  async start(): Promise<void> {}

  async close(): Promise<void> {
    for (const settle of this.pending.values()) settle(null);
    this.pending.clear();
    this.onclose?.();
  }

  async send(message: JSONRPCMessage): Promise<void> {
    // Notifications or requests from the server have no stream to travel on in stateless JSON mode (the SDK's transport drops them too).
    if ('method' in message || !('id' in message) || typeof message.id !== 'number') return;
    this.settle(message.id, message);
  }

  dispatch(messages: JSONRPCMessage[], extra: MessageExtraInfo): Dispatch {
    const ours = new Map<RequestId, number>();
    const answers: Promise<JSONRPCMessage | null>[] = [];
    const internal: number[] = [];
    const inbound: JSONRPCMessage[] = [];
    for (const message of messages) {
      if (isRequest(message)) {
        const id = ++this.lastId;
        const clientId = message.id;
        answers.push(new Promise((resolve) => this.pending.set(id, (answer) => resolve(answer && { ...answer, id: clientId }))));
        ours.set(clientId, id);
        internal.push(id);
        inbound.push({ ...message, id });
      } else if ('method' in message) {
        if (message.method !== 'notifications/cancelled') {
          inbound.push(message);
          continue;
        }
        // A client may cancel only its own requests, which in stateless HTTP means one in this same batch.
        const target = ours.get((message.params as { requestId?: RequestId } | undefined)?.requestId as RequestId);
        if (target === undefined) continue;
        inbound.push({ ...message, params: { ...message.params, requestId: target } });
        this.settle(target, null);
      }
      // A response from the client answers nothing: this Server never sends requests.
    }
    for (const message of inbound) this.onmessage?.(message, extra);
    return {
      answers: Promise.all(answers).then((all) => all.filter((a): a is JSONRPCMessage => a !== null)),
      abandon: () => {
        for (const id of internal) {
          if (!this.pending.has(id)) continue;
          this.settle(id, null);
          this.onmessage?.({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: 'HTTP request closed' } }, extra);
        }
      },
    };
  }

  private settle(id: number, answer: JSONRPCMessage | null): void {
    const resolve = this.pending.get(id);
    if (!resolve) return;
    this.pending.delete(id);
    resolve(answer);
  }
}
