import { h, uid } from './dom.ts';
import type { Question } from './types.ts';

/** Renders an intake's questions as a form; resolves with the answers by question id. */
export function intakeView(title: string, welcome: string | null, questions: Question[], onSubmit: (answers: Record<string, unknown>) => void): Node[] {
  const fields = questions.map((q) => {
    const id = uid('vb-q');
    const required = q.required === 1;
    if ((q.question_type === 'single_choice' || q.question_type === 'multiple_choice') && q.options) {
      const type = q.question_type === 'single_choice' ? 'radio' : 'checkbox';
      const inputs = q.options.map((opt) => {
        const oid = uid('vb-opt');
        return h('div', { class: 'vb-check' }, h('input', { type, name: id, id: oid, value: opt }), h('label', { for: oid }, opt));
      });
      return { q, el: h('fieldset', {}, h('legend', {}, q.question_text + (required ? ' *' : '')), ...inputs), id, type };
    }
    const input = q.question_type === 'number' || q.question_type === 'rating'
      ? h('input', { type: 'number', id, ...(q.min_value !== null ? { min: String(q.min_value) } : {}), ...(q.max_value !== null ? { max: String(q.max_value) } : {}) })
      : h('textarea', { id, rows: '2' });
    return { q, el: h('div', {}, h('label', { for: id }, q.question_text + (required ? ' *' : '')), input), id, type: 'text' };
  });
  const error = h('p', { class: 'vb-error', role: 'alert' });
  const form = h('form', {}, ...fields.map((f) => f.el), error, h('button', { type: 'submit', class: 'vb-primary' }, 'Continue'));
  form.style.display = 'grid';
  form.style.gap = '12px';
  form.addEventListener('submit', (e) => {
    e.preventDefault();
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
      if (a === undefined) delete answers[f.q.id];
    }
    onSubmit(answers);
  });
  return [h('p', {}, welcome ?? title), form];
}
