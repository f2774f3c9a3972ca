export interface Invitation {
  launcher: { label: string; icon: 'feedback' | 'mic' | 'diagram' | 'bug' | 'research'; style?: 'calm' | 'lattice' | 'beam' | 'ticket'; shape?: 'capsule' | 'rounded' | 'square' };
  panel?: {
    eyebrow?: string;
    headline: string;
    body?: string;
    duration_minutes?: number;
    reward?: { kind: string; label: string; eligibility?: string; delivery?: string };
    cta: string;
    image?: { asset_id: string; url: string; alt: string };
  };
  presentation_mode: 'passive' | 'contextual' | 'direct_link';
  brand_color: { light: string; dark?: string };
  foreground_color?: string;
  placement: { desktop: 'bottom-left' | 'bottom-right'; mobile: 'bottom-left' | 'bottom-right' };
}

export interface Study {
  ref: string;
  handle: string;
  title: string;
  invitation: Invitation | null;
  intake_ref: string | null;
  allowed_selectors: string[];
  voice: { available: boolean; path: 'realtime' | 'transcription' | null; reason: string | null };
}

export interface Placement {
  outcome: 'match' | 'no_match' | 'ambiguous' | 'unavailable';
  study_ref?: string;
  invitation?: Invitation | null;
}

export interface Question {
  id: string;
  question_text: string;
  question_type: string;
  required: number;
  options: string[] | null;
  min_value: number | null;
  max_value: number | null;
}

export interface ConductorMessage {
  role: 'conductor' | 'participant';
  kind?: string;
  text: string;
  segment_id: string | null;
}
