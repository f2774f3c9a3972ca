import { describe, expect, it } from 'vitest';
import { cleanLine } from '../tools/interviews/ocr-text.ts';
import { screenReader } from '../tools/interviews/ocr.ts';
import { launchBrowser } from './helpers/browser.ts';

describe('OCR lines without UI borders', () => {
  it('drops pipes, box drawing and brackets that are the edges of a button, field or table', () => {
    expect(cleanLine('|Join waitlist|')).toBe('Join waitlist');
    expect(cleanLine('[Join waitlist|')).toBe('Join waitlist');
    expect(cleanLine('¦ Save changes ¦')).toBe('Save changes');
    expect(cleanLine('│ Plan │ Price │')).toBe('Plan Price');
    expect(cleanLine('┌──────┐ Sign in')).toBe('Sign in');
    expect(cleanLine('Pricing | Docs | Blog')).toBe('Pricing Docs Blog');
    expect(cleanLine('Home|About')).toBe('Home About');
    expect(cleanLine('{Continue}')).toBe('Continue');
    expect(cleanLine('Email ____________')).toBe('Email');
    expect(cleanLine('Email____')).toBe('Email');
    // Lone punctuation is no word.
    expect(cleanLine('| — • Export » ·')).toBe('Export');
    expect(cleanLine('| [ ] |')).toBe('');
  });

  it('keeps real text as it is', () => {
    for (const text of [
      "Don't have an account? Sign up",
      'Save 50% on the annual plan, from $20 a month',
      'Phone number (optional)',
      'e-mail: ada@example.com',
      'Q&A with the team, v1.2',
      'Zürich, Café Noir',
      'Step 3 of 4 and I agree',
    ]) {
      expect(cleanLine(text)).toBe(text);
    }
  });

  it('reads a bordered button on a screen as its label', async () => {
    const browser = await launchBrowser();
    const reader = await screenReader();
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
      // Borders left and right of the label are what tesseract took for "[" and "|".
      await page.setContent(
        `<body style="font-family:sans-serif;margin:60px"><p style="font-size:24px">Coming soon. Be the first to know.</p>` +
          `<div style="display:inline-block;border-left:3px solid #000;border-right:3px solid #000;font-size:40px;padding:0 6px">Join waitlist</div></body>`,
      );
      const read = await reader.read(await page.screenshot());
      expect(read.lines).toEqual(['Coming soon. Be the first to know.', 'Join waitlist']);
      expect(read.prominent).toBe('Join waitlist');
    } finally {
      await reader.close();
      await browser.close();
    }
  }, 60_000);
});
