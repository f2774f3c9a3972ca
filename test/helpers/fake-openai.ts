import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * An OpenAI-compatible server on loopback, standing in for the provider (tests never call
 * the internet). It answers /models, /audio/transcriptions with the segments it is given,
 * and /chat/completions with evidence built by `evidence` from the transcript it receives.
 */
export interface FakeOpenAI {
  url: string;
  calls: Array<{ path: string; auth: string | undefined }>;
  transcriptSegments: Array<{ start: number; end: number; text: string }>;
  evidence: (transcript: string) => unknown[];
  /** The conductor's next turn when it asks the model to interview. */
  chat: (messages: Array<{ role: string; content: string }>) => { say: string | null; done: boolean };
  /** While set, conductor turns wait for it: a model that is still thinking. */
  chatGate: Promise<void> | null;
  /** While set, transcriptions wait for it: a slow model still working on the audio. */
  transcriptionGate: Promise<void> | null;
  /** The session of each realtime call, as the proxy sent it. */
  realtimeSessions: Array<Record<string, any>>;
  /** Answers a realtime call's SDP offer (a WebRTC peer); by default the offer comes back as "answer". */
  realtimeAnswer: ((offer: string) => Promise<string>) | null;
  status: number;
  close(): Promise<void>;
}

export async function fakeOpenAI(key: string): Promise<FakeOpenAI> {
  const state: FakeOpenAI = {
    url: '',
    calls: [],
    transcriptSegments: [
      { start: 0, end: 3.5, text: "I couldn't find the export button anywhere." },
      { start: 3.5, end: 6, text: 'It was really frustrating.' },
    ],
    evidence: () => [],
    chat: () => ({ say: 'Tell me more.', done: false }),
    chatGate: null,
    transcriptionGate: null,
    realtimeSessions: [],
    realtimeAnswer: null,
    status: 200,
    close: async () => {},
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const path = (req.url ?? '').replace(/^\/v1/, '');
      state.calls.push({ path, auth: req.headers.authorization });
      const json = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (req.headers.authorization !== `Bearer ${key}`) return json(401, { error: { message: 'bad key' } });
      if (state.status !== 200) return json(state.status, { error: { message: 'unavailable' } });
      if (path === '/models') return json(200, { data: [{ id: 'whisper-1' }] });
      if (path === '/audio/transcriptions') {
        const body = Buffer.concat(chunks).toString('latin1');
        if (!body.includes('name="file"') || !body.includes('name="model"')) return json(400, { error: { message: 'file and model are required' } });
        const answer = () => json(200, { text: state.transcriptSegments.map((s) => s.text).join(' '), segments: state.transcriptSegments });
        if (state.transcriptionGate) return void state.transcriptionGate.then(answer);
        return answer();
      }
      if (path === '/realtime/sessions' || path === '/realtime/transcription_sessions') {
        return json(200, { client_secret: { value: 'ek_test_secret', expires_at: 1893456000 } });
      }
      if (path.startsWith('/realtime/calls')) {
        // The call's form: the browser's SDP offer and the session the proxy starts it with.
        const body = Buffer.concat(chunks);
        void new Request('http://fake/', { method: 'POST', headers: { 'content-type': req.headers['content-type'] ?? '' }, body })
          .formData()
          .then(async (form) => {
            const offer = form.get('sdp');
            if (typeof offer !== 'string') return json(400, { error: { message: 'sdp expected' } });
            state.realtimeSessions.push(JSON.parse(String(form.get('session') ?? '{}')));
            const answer = state.realtimeAnswer ? await state.realtimeAnswer(offer) : offer.replace('offer', 'answer');
            res.writeHead(201, { 'content-type': 'application/sdp', location: '/v1/realtime/calls/rtc_test_call' }).end(answer);
          })
          .catch(() => json(400, { error: { message: 'multipart form with sdp expected' } }));
        return;
      }
      if (path === '/chat/completions') {
        const request = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { messages: Array<{ role: string; content: string }> };
        if (request.messages[0].content.startsWith('You are a neutral user-research interviewer')) {
          if (state.chatGate) return void state.chatGate.then(() => json(200, { choices: [{ message: { role: 'assistant', content: JSON.stringify(state.chat(request.messages)) } }] }));
          return json(200, { choices: [{ message: { role: 'assistant', content: JSON.stringify(state.chat(request.messages)) } }] });
        }
        const transcript = request.messages[request.messages.length - 1].content;
        return json(200, { choices: [{ message: { role: 'assistant', content: JSON.stringify({ evidence: state.evidence(transcript) }) } }] });
      }
      json(404, { error: { message: 'not found' } });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  state.close = () => new Promise((r) => server.close(() => r()));
  return state;
}
