import type { Api } from './api.ts';

/**
 * A WebRTC call with the realtime model, opened through the service
 * (POST /api/sdk/conductor/:id/realtime-call relays the SDP and starts the session). The model
 * is the conductor's voice: each line is asked for with response.create, and what the
 * participant says comes back as transcription events on the data channel.
 */
export interface RealtimeCall {
  /** Has the model say `text`; resolves when it has finished speaking. */
  say(text: string): Promise<void>;
  close(): void;
}

export interface RealtimeHandlers {
  /** A finished transcription of the participant, with performance.now() when they began speaking. */
  onParticipant(text: string, startedAt: number): void;
}

const OPEN_TIMEOUT_MS = 10_000;

export async function openRealtimeCall(api: Api, sessionId: string, stream: MediaStream, handlers: RealtimeHandlers): Promise<RealtimeCall> {
  const pc = new RTCPeerConnection();
  const audio = new Audio();
  audio.autoplay = true;
  pc.ontrack = (e) => {
    audio.srcObject = e.streams[0] ?? new MediaStream([e.track]);
    void audio.play().catch(() => {});
  };
  for (const track of stream.getAudioTracks()) pc.addTrack(track, stream);
  const dc = pc.createDataChannel('oai-events');
  let speechStartedAt: number | null = null;
  let finishSpeaking: (() => void) | null = null;
  dc.onmessage = (e) => {
    let ev: { type?: string; transcript?: string };
    try {
      ev = JSON.parse(String(e.data));
    } catch {
      return;
    }
    if (ev.type === 'input_audio_buffer.speech_started') speechStartedAt = performance.now();
    else if (ev.type === 'conversation.item.input_audio_transcription.completed' && ev.transcript?.trim()) {
      handlers.onParticipant(ev.transcript.trim(), speechStartedAt ?? performance.now());
      speechStartedAt = null;
    } else if (ev.type === 'response.done' || ev.type === 'output_audio_buffer.stopped') finishSpeaking?.();
  };
  try {
    await pc.setLocalDescription(await pc.createOffer());
    // The whole offer, candidates included: the service relays it in one request.
    await new Promise<void>((resolve) => {
      if (pc.iceGatheringState === 'complete') return resolve();
      pc.addEventListener('icegatheringstatechange', () => pc.iceGatheringState === 'complete' && resolve());
      setTimeout(resolve, 2000);
    });
    const { sdp } = await api.post<{ sdp: string }>(`/api/sdk/conductor/${sessionId}/realtime-call`, { sdp: pc.localDescription!.sdp });
    await pc.setRemoteDescription({ type: 'answer', sdp });
    await new Promise<void>((resolve, reject) => {
      if (dc.readyState === 'open') return resolve();
      dc.onopen = () => resolve();
      setTimeout(() => reject(new Error('The voice call did not connect')), OPEN_TIMEOUT_MS);
    });
  } catch (err) {
    pc.close();
    throw err;
  }
  return {
    say(text) {
      return new Promise<void>((resolve) => {
        const guard = setTimeout(done, 4000 + text.length * 90);
        function done() {
          clearTimeout(guard);
          finishSpeaking = null;
          resolve();
        }
        finishSpeaking = done;
        dc.send(JSON.stringify({ type: 'response.create', response: { instructions: `Say exactly this, and nothing else: ${text}` } }));
      });
    },
    close() {
      dc.close();
      pc.close();
      audio.srcObject = null;
    },
  };
}
