import type { TaskFactory } from '../runner.ts';
import { runStep } from '../../tools/interviews/steps.ts';
import { extractEvidence } from '../../tools/evidence/extract.ts';
import { detectRecurrence } from '../../tools/evidence/recurrence.ts';
import { replaceSignals } from '../../tools/evidence/store.ts';
import { DERIVED_SUMMARY, summaryOf } from '../../tools/evidence/summary.ts';

export const task: TaskFactory = (services) => async (payload, helpers) => {
  const { interviewId, replaceManualEvidence } = payload as { interviewId: string; replaceManualEvidence?: boolean };
  await runStep(services, interviewId, 'extracting', helpers, async ({ interview, warn }) => {
    const rows = await extractEvidence(services, interview, warn);
    return {
      finish: async (sql) => {
        await replaceSignals(sql, interview.id, rows, replaceManualEvidence === true);
        // A summary a person wrote stays; one the pipeline wrote follows the evidence.
        await sql.query(`UPDATE interviews SET summary = $2 WHERE id = $1 AND (summary IS NULL OR starts_with(summary, $3))`, [interview.id, summaryOf(rows), DERIVED_SUMMARY]);
        if (rows.length) await detectRecurrence(sql, interview.project_id, rows.map((r) => r.id));
        return null; // runStep counts the interview's evidence as it marks it processed
      },
    };
  });
};
