import { z } from 'zod';
import { EVIDENCE_GRADES, SIGNAL_TYPES, TARGET_SURFACES, type ExtractedEvidence, type ExtractionContext, type Extractor, type Turn } from './types.ts';
import { StepFailure } from '../interviews/pipeline.ts';
import type { Response } from 'undici';
import { addressRefused, endpointFetch, REFUSED_ACTION, type Endpoint } from '../interviews/model-access.ts';

/** What the model must answer with: the case-file evidence fields, one item per finding. */
const ModelEvidence = z.object({
  signal_type: z.enum(SIGNAL_TYPES),
  target_surface: z.enum(TARGET_SURFACES),
  quote: z.string().min(1),
  segment_id: z.string().nullable().optional(),
  headline: z.string().min(1),
  claim: z.string().min(1),
  reconstruction: z.string().min(1),
  observed_facts: z.array(z.string().min(1)).min(1),
  evidence_grade: z.enum(EVIDENCE_GRADES),
  confidence: z.number().min(0).max(1),
  intensity: z.number().min(0).max(1).nullable().optional(),
  user_goal: z.string().nullable().optional(),
  outcome: z.string().nullable().optional(),
});
const ModelAnswer = z.object({ evidence: z.array(ModelEvidence) });

const SYSTEM = [
  'You are a careful user researcher. From an interview transcript, extract evidence cards about the participant\'s experience.',
  `signal_type is one of: ${SIGNAL_TYPES.join(', ')}. target_surface is one of: ${TARGET_SURFACES.join(', ')} (use product_under_test unless the`,
  'participant talks about the interview itself, the recording widget, or the interviewer).',
  `evidence_grade is one of: ${EVIDENCE_GRADES.join(', ')}. confidence and intensity are numbers from 0 to 1.`,
  'quote MUST be copied character for character from one transcript segment (the participant\'s words, never the interviewer\'s); give that segment_id.',
  'headline: a short title. claim: one sentence stating what the quote shows. reconstruction: the context in one or two sentences.',
  'observed_facts: what was literally said or done, no interpretation. Answer only with JSON: {"evidence": [...]}',
].join(' ');

/** An OpenAI-compatible chat model asked for JSON that matches the case-file evidence schema. */
export class LlmExtractor implements Extractor {
  readonly name = 'llm';
  private endpoint: Endpoint;
  constructor(endpoint: Endpoint) {
    this.endpoint = endpoint;
  }

  async extract(turns: Turn[], context: ExtractionContext): Promise<ExtractedEvidence[]> {
    const transcript = turns.map((t) => `[${t.segment_id}] ${t.role}${t.speaker ? ` (${t.speaker})` : ''}: ${t.text}`).join('\n');
    const goals = context.studyGoals.length ? `Study goals:\n${context.studyGoals.map((g) => `- ${g.id}: ${g.description}`).join('\n')}\n\n` : '';
    let res: Response;
    try {
      res = await endpointFetch(this.endpoint, '/chat/completions', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${this.endpoint.apiKey ?? ''}` },
        body: JSON.stringify({
          model: this.endpoint.model,
          temperature: 0,
          response_format: { type: 'json_object' },
          messages: [
            { role: 'system', content: SYSTEM },
            { role: 'user', content: `${goals}Transcript:\n${transcript}` },
          ],
        }),
        signal: AbortSignal.timeout(120_000),
      });
    } catch (err) {
      if (addressRefused(err)) throw new StepFailure('extraction_address_not_allowed', 'The extraction model address is not a public address, so it was not called', { action: REFUSED_ACTION });
      throw new StepFailure('extraction_provider_unreachable', 'The extraction model could not be reached', { retryable: true });
    }
    if (res.status === 401 || res.status === 403) {
      throw new StepFailure('extraction_auth_failed', 'The extraction model rejected the API key', { action: 'Check openai_api_key in the project settings' });
    }
    if (!res.ok) throw new StepFailure('extraction_provider_error', `The extraction model answered HTTP ${res.status}`, { retryable: res.status === 429 || res.status >= 500 });
    const body = (await res.json()) as { choices?: Array<{ message?: { content?: string } }> };
    const content = body.choices?.[0]?.message?.content ?? '';
    let parsed: z.output<typeof ModelAnswer>;
    try {
      parsed = ModelAnswer.parse(JSON.parse(content));
    } catch {
      throw new StepFailure('extraction_invalid_output', 'The extraction model did not answer with evidence JSON', { retryable: true });
    }
    return parsed.evidence.map((e) => ({
      ...e,
      segment_id: e.segment_id ?? null,
      intensity: e.intensity ?? null,
      user_goal: e.user_goal ?? null,
      outcome: e.outcome ?? null,
    }));
  }
}
