import type { SoapField } from './autosave';

export const SECTION_LABELS: Record<SoapField, { label: string; hint: string }> = {
  subjective: { label: 'Subjective', hint: 'What the client reports' },
  objective: { label: 'Objective', hint: 'What you observe and measure' },
  assessment: { label: 'Assessment', hint: 'Your clinical assessment' },
  plan: { label: 'Plan', hint: 'Next steps' },
};
