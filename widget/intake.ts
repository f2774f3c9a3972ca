import { h, uid } from './dom.ts';
import type { Question } from './types.ts';

/** "answers.itq_…: must be yes or no; answers.itq_…: …" → each about its question, as the participant read it. */
function errorForParticipant(message: string, questions: Question[]): string {
  return message
    .split('; ')
    .map((part) => {
      const m = /^answers\.([\w-]+): (.*)$/.exec(part);
      const q = m && questions.find((x) => x.id === m[1]);
      return q ? `Please check your answer to "${q.question_text}": ${/^must\b/.test(m![2]) ? `it ${m![2]}` : m![2]}.` : part;
    })
    .join(' ');
}

/**
 * Renders a screener's questions as a form. `onSubmit` sends the answers by question id; when it
 * throws (an answer the server refuses), the form stays, with what to fix; once it succeeds, the
 * form cannot be sent again.
 */
export function intakeView(title: string, welcome: string | null, questions: Question[], onSubmit: (answers: Record<string, unknown>) => Promise<void>): Node[] {
  const fields = questions.map((q) => {
    const id = uid('vb-q');
    const required = q.required === 1;
    const options = q.question_type === 'yes_no' ? ['Yes', 'No'] : q.options;
    if ((q.question_type === 'single_choice' || q.question_type === 'multiple_choice' || q.question_type === 'yes_no') && options) {
      const type = q.question_type === 'multiple_choice' ? 'checkbox' : 'radio';
      const inputs = options.map((opt) => {
        const oid = uid('vb-opt');
        const value = q.question_type === 'yes_no' ? opt.toLowerCase() : opt;
        return h('div', { class: 'vb-check' }, h('input', { type, name: id, id: oid, value }), h('label', { for: oid }, opt));
      });
      return { q, el: h('fieldset', {}, h('legend', {}, q.question_text + (required ? ' *' : '')), ...inputs), id, type };
    }
    const bounds = { ...(q.min_value !== null ? { min: String(q.min_value) } : {}), ...(q.max_value !== null ? { max: String(q.max_value) } : {}) };
    const input =
      q.question_type === 'number' || q.question_type === 'scale'
        ? h('input', { type: 'number', id, ...bounds, ...(q.question_type === 'scale' ? { step: '1' } : {}) })
        : q.question_type === 'email'
          ? h('input', { type: 'email', id, autocomplete: 'email' })
          : q.question_type === 'short_text'
            ? h('input', { type: 'text', id, maxlength: '200' })
            : h('textarea', { id, rows: '2' });
    return { q, el: h('div', {}, h('label', { for: id }, q.question_text + (required ? ' *' : '')), input), id, type: 'text' };
  });
  const error = h('p', { class: 'vb-error', role: 'alert' });
  const submit = h('button', { type: 'submit', class: 'vb-primary' }, 'Continue');
  const form = h('form', {}, ...fields.map((f) => f.el), error, submit);
  form.style.display = 'grid';
  form.style.gap = '12px';
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    error.textContent = '';
    const answers: Record<string, unknown> = {};
    for (const f of fields) {
      if (f.type === 'radio') answers[f.q.id] = form.querySelector<HTMLInputElement>(`input[name="${f.id}"]:checked`)?.value;
      else if (f.type === 'checkbox') answers[f.q.id] = [...form.querySelectorAll<HTMLInputElement>(`input[name="${f.id}"]:checked`)].map((i) => i.value);
      else {
        const el = form.querySelector<HTMLInputElement | HTMLTextAreaElement>(`#${f.id}`)!;
        answers[f.q.id] = el.type === 'number' ? (el.value === '' ? undefined : Number(el.value)) : el.value.trim() || undefined;
      }
      const a = answers[f.q.id];
      if (f.q.required && (a === undefined || (Array.isArray(a) && !a.length))) {
        error.textContent = `Please answer: ${f.q.question_text}`;
        return;
      }
      if (a === undefined || (Array.isArray(a) && !a.length)) delete answers[f.q.id];
    }
    submit.disabled = true;
    onSubmit(answers).catch((err: unknown) => {
      error.textContent = errorForParticipant(err instanceof Error ? err.message : 'Something went wrong. Please try again.', questions);
      submit.disabled = false;
    });
  });
  return [h('p', {}, welcome ?? title), form];
}
