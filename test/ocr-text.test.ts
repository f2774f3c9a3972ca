import { describe, expect, it } from 'vitest';
import { cleanLine, prominentRun, readingOrder, typeSize, type TextRun } from '../tools/interviews/ocr-text.ts';
import { imageSize, screenReader } from '../tools/interviews/ocr.ts';
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

/** A run of text at (x, y), `size` px type, about as wide as its letters. */
const run = (text: string, x: number, y: number, size = 14): TextRun => ({ text, x0: x, y0: y, x1: x + text.length * size * 0.55, y1: y + size, size });
const read = (runs: TextRun[]) => readingOrder(runs).map((row) => row.map((r) => r.text).join(' | '));

describe('the layout of a screen read by OCR', () => {
  it('tells type size from a word box and the letters in it', () => {
    const box = (h: number) => ({ x0: 0, y0: 0, x1: 50, y1: h });
    // x-height letters only, a capital, a capital and a descender: all 20 px type.
    expect(typeSize('use', box(10.6))).toBeCloseTo(20, 0);
    expect(typeSize('Save', box(14.4))).toBeCloseTo(20, 0);
    expect(typeSize('Apply', box(18.6))).toBeCloseTo(20, 0);
    expect(typeSize('—', box(3))).toBeNull();
  });

  it('reads a sidebar apart from the page beside it, and a table row by row', () => {
    const sidebar = ['Dashboard', 'Invoices', 'Customers', 'Reports'].map((t, i) => run(t, 20, 100 + i * 37));
    const page = [
      run('Invoices', 300, 40, 22),
      run('Invoice', 300, 100), run('Customer', 420, 100), run('Status', 600, 100),
      run('INV-2041', 300, 130), run('Acme Robotics', 420, 130), run('Overdue', 600, 130),
      run('INV-2040', 300, 160), run('Northwind Traders', 420, 160), run('Paid', 600, 160),
      run('INV-2039', 300, 190), run('Blue Harbor', 420, 190), run('Sent', 600, 190),
    ];
    expect(read([...page, ...sidebar])).toEqual([
      'Dashboard', 'Invoices', 'Customers', 'Reports',
      'Invoices',
      'Invoice | Customer | Status',
      'INV-2041 | Acme Robotics | Overdue',
      'INV-2040 | Northwind Traders | Paid',
      'INV-2039 | Blue Harbor | Sent',
    ]);
  });

  it('reads a banner before its button, and a lone name at the far right in its row', () => {
    const runs = [
      run('Maya Fischer', 1100, 10),
      run('Payment settings', 300, 60, 22),
      run('Bank connection expired', 310, 110),
      run('Reconnect your account to keep payouts running.', 310, 130),
      run('Reconnect', 1000, 119),
      run('Company name', 300, 180), run('Tax ID', 700, 180),
      run('Acme Robotics Ltd', 300, 205), run('GB123456789', 700, 205),
    ];
    expect(read(runs)).toEqual([
      'Maya Fischer',
      'Payment settings',
      'Bank connection expired',
      'Reconnect your account to keep payouts running.',
      'Reconnect',
      'Company name | Tax ID',
      'Acme Robotics Ltd | GB123456789',
    ]);
    expect(readingOrder([])).toEqual([]);
  });

  it('takes the heading from the largest wordy type, the topmost of equals, never a number', () => {
    const runs = [run('Staywell', 20, 10, 16), run('Payment details', 40, 80, 18), run('Harbour View Hotel', 600, 60, 18.3), run('Total', 600, 300, 14), run('£2,418.36', 40, 40, 28)];
    expect(prominentRun(runs)?.text).toBe('Harbour View Hotel');
    expect(prominentRun([run('£2,418.36', 0, 0, 28), run('INV-2041', 0, 40, 20)])).toBeNull();
  });

  it('reads big bold headings, dark on light and light on dark, whole', async () => {
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
      await page.setContent(
        `<body style="font-family:sans-serif;margin:60px;background:#0b1020;color:#fff"><h1 style="font-size:72px;font-weight:900">Ship faster together</h1>` +
          `<p style="font-size:28px;color:#cbd5e1">Plan sprints, track bugs and release on time.</p></body>`,
      );
      const dark = await page.screenshot({ type: 'jpeg', quality: 90 });
      await page.setContent(`<body style="font-family:sans-serif;margin:60px"><h1 style="font-size:80px;font-weight:900">Pricing plans</h1><p style="font-size:30px;font-weight:800">Save 20% yearly</p></body>`);
      const light = await page.screenshot({ type: 'jpeg', quality: 90 });
      for (const [shot, lines] of [
        [dark, ['Ship faster together', 'Plan sprints, track bugs and release on time.']],
        [light, ['Pricing plans', 'Save 20% yearly']],
      ] as const) {
        // A reader of its own each: the first frame of a recording is the one read enlarged.
        const reader = await screenReader();
        try {
          const read = await reader.read(shot);
          expect(read.lines).toEqual(lines);
          expect(read.prominent).toBe(lines[0]);
        } finally {
          await reader.close();
        }
      }
    } finally {
      await browser.close();
    }
  }, 60_000);

  it('knows the size of a PNG or JPEG from its header', async () => {
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage({ viewport: { width: 321, height: 123 } });
      expect(imageSize(await page.screenshot())).toEqual({ width: 321, height: 123 });
      expect(imageSize(await page.screenshot({ type: 'jpeg' }))).toEqual({ width: 321, height: 123 });
      expect(imageSize(Buffer.from('these bytes are no picture at all'))).toBeNull();
    } finally {
      await browser.close();
    }
  }, 60_000);
});
