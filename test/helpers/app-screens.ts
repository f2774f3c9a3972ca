import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import ESpeakNg from 'espeak-ng';

/**
 * Realistic screens of a web app for judging how well the text on a screen recording is read:
 * app chrome (sidebar, top bar, tabs), tables, forms, banners, badges and fine print in the
 * 12–16 px type real products use, on light and dark backgrounds. Two sets that share no
 * screen: TUNING_SCREENS to decide changes on, CHECK_SCREENS to check them (and for the test),
 * so the figures are not tuned on the screens they are reported for.
 */
export interface AppScreen {
  name: string;
  /** CSS pixels; `scale` is the device pixel ratio (a phone records at 3). */
  viewport: { width: number; height: number; scale?: number };
  html: string;
  /** What the participant says while the screen is shown. */
  said: string;
  /** The headings a person would name the screen by: a good page title contains one. */
  titles: string[];
}

const FONT = `font-family:system-ui,-apple-system,'Segoe UI',Roboto,'Helvetica Neue',Arial,sans-serif`;
const BASE = `*{box-sizing:border-box}body{margin:0;${FONT};font-size:14px;color:#1f2937;background:#f6f7f9}
table{border-collapse:collapse;width:100%}th{font-size:12px;text-transform:uppercase;letter-spacing:.04em;color:#6b7280;text-align:left;font-weight:600;padding:8px 12px;border-bottom:1px solid #e5e7eb}
td{padding:9px 12px;border-bottom:1px solid #eef0f3;font-size:13px}
.badge{display:inline-block;padding:2px 8px;border-radius:999px;font-size:12px;font-weight:600}
.btn{display:inline-block;padding:7px 14px;border-radius:6px;font-size:14px;font-weight:600;border:1px solid #d1d5db;background:#fff;color:#111827}
.btn.primary{background:#4f46e5;border-color:#4f46e5;color:#fff}
label{display:block;font-size:13px;font-weight:600;margin:0 0 4px}
input,select{${FONT};font-size:14px;padding:7px 10px;border:1px solid #d1d5db;border-radius:6px;width:100%;background:#fff;color:#111827}
.hint{font-size:12px;color:#6b7280;margin-top:4px}
.card{background:#fff;border:1px solid #e5e7eb;border-radius:8px}`;

/** A desktop app: a sidebar of sections, a top bar with search and the user, and the page. */
function shell(opts: { product: string; nav: string[]; active: string; user: string; search: string; dark?: boolean }, main: string): string {
  const side = opts.dark
    ? 'background:#111827;color:#d1d5db'
    : 'background:#fff;color:#374151;border-right:1px solid #e5e7eb';
  const nav = opts.nav
    .map((n) => `<div style="padding:7px 12px;border-radius:6px;margin:2px 0;font-size:14px;${n === opts.active ? (opts.dark ? 'background:#374151;color:#fff' : 'background:#eef2ff;color:#4338ca;font-weight:600') : ''}">${n}</div>`)
    .join('');
  return `<style>${BASE}</style><div style="display:flex;height:100vh">
<aside style="width:210px;padding:16px 12px;${side}"><div style="font-size:16px;font-weight:700;margin:0 0 18px 8px">${opts.product}</div>${nav}</aside>
<div style="flex:1;display:flex;flex-direction:column;min-width:0">
<header style="height:52px;display:flex;align-items:center;justify-content:space-between;padding:0 24px;background:#fff;border-bottom:1px solid #e5e7eb">
<div style="width:320px;padding:6px 10px;border:1px solid #e5e7eb;border-radius:6px;color:#9ca3af;font-size:13px">${opts.search}</div>
<div style="font-size:13px;color:#374151">${opts.user}</div></header>
<main style="padding:20px 28px;overflow:hidden">${main}</main></div></div>`;
}

const badge = (text: string, fg: string, bg: string) => `<span class="badge" style="color:${fg};background:${bg}">${text}</span>`;
const STATUS: Record<string, [string, string]> = {
  Paid: ['#047857', '#d1fae5'],
  Overdue: ['#b91c1c', '#fee2e2'],
  Draft: ['#4b5563', '#e5e7eb'],
  Sent: ['#1d4ed8', '#dbeafe'],
  Active: ['#047857', '#d1fae5'],
  Churned: ['#b91c1c', '#fee2e2'],
  Trial: ['#92400e', '#fef3c7'],
};
const status = (s: string) => badge(s, ...STATUS[s]);

function table(head: string[], rows: string[][]): string {
  return `<table><thead><tr>${head.map((h) => `<th>${h}</th>`).join('')}</tr></thead><tbody>${rows.map((r) => `<tr>${r.map((c) => `<td>${c}</td>`).join('')}</tr>`).join('')}</tbody></table>`;
}

const field = (label: string, value: string, hint?: string) =>
  `<div style="margin-bottom:14px"><label>${label}</label><input value="${value}">${hint ? `<div class="hint">${hint}</div>` : ''}</div>`;

const banner = (title: string, body: string, action: string) =>
  `<div style="display:flex;align-items:center;gap:12px;padding:12px 16px;border:1px solid #fecaca;background:#fef2f2;border-radius:8px;margin-bottom:18px">
<div style="flex:1"><div style="font-weight:700;color:#991b1b;font-size:14px">${title}</div><div style="color:#b91c1c;font-size:13px;margin-top:2px">${body}</div></div>
<span class="btn" style="border-color:#fca5a5;color:#991b1b">${action}</span></div>`;

const DESK = { width: 1280, height: 720 };
const PHONE = { width: 390, height: 844, scale: 3 };

const LEDGER = { product: 'Ledgerly', nav: ['Dashboard', 'Invoices', 'Customers', 'Payments', 'Reports', 'Settings'], user: 'Maya Fischer', search: 'Search invoices, customers…' };

export const TUNING_SCREENS: AppScreen[] = [
  {
    name: 'invoice-list',
    titles: ['Invoices'],
    viewport: DESK,
    said: 'Here is the list of invoices, I am looking for the overdue ones.',
    html: shell(
      { ...LEDGER, active: 'Invoices' },
      `<div style="display:flex;justify-content:space-between;align-items:center;margin-bottom:14px"><h1 style="font-size:22px;margin:0">Invoices</h1><div><span class="btn">Export CSV</span> <span class="btn primary">New invoice</span></div></div>
<div style="display:flex;gap:18px;border-bottom:1px solid #e5e7eb;margin-bottom:12px;font-size:14px;color:#6b7280"><span style="color:#4338ca;border-bottom:2px solid #4338ca;padding-bottom:8px;font-weight:600">All</span><span>Draft</span><span>Sent</span><span>Overdue</span><span>Paid</span></div>
<div class="card">${table(
        ['Invoice', 'Customer', 'Issued', 'Due', 'Amount', 'Status'],
        [
          ['INV-2041', 'Acme Robotics', 'Mar 02, 2025', 'Apr 01, 2025', '$1,240.00', status('Overdue')],
          ['INV-2040', 'Northwind Traders', 'Feb 28, 2025', 'Mar 30, 2025', '$860.50', status('Paid')],
          ['INV-2039', 'Blue Harbor Dental', 'Feb 25, 2025', 'Mar 27, 2025', '$3,125.00', status('Sent')],
          ['INV-2038', 'Greenfield Bakery', 'Feb 21, 2025', 'Mar 23, 2025', '$412.75', status('Draft')],
          ['INV-2037', 'Orbit Logistics', 'Feb 18, 2025', 'Mar 20, 2025', '$9,870.00', status('Paid')],
          ['INV-2036', 'Riverside Clinic', 'Feb 14, 2025', 'Mar 16, 2025', '$2,318.40', status('Overdue')],
          ['INV-2035', 'Summit Outdoor', 'Feb 11, 2025', 'Mar 13, 2025', '$745.00', status('Paid')],
          ['INV-2034', 'Copperleaf Studio', 'Feb 07, 2025', 'Mar 09, 2025', '$1,980.00', status('Sent')],
        ],
      )}<div style="display:flex;justify-content:space-between;padding:10px 12px;font-size:12px;color:#6b7280"><span>Showing 1 to 8 of 124 invoices</span><span>Previous · Next</span></div></div>`,
    ),
  },
  {
    name: 'payment-settings',
    titles: ['Payment settings'],
    viewport: DESK,
    said: 'The card was declined and I do not know which card it means.',
    html: shell(
      { ...LEDGER, active: 'Settings' },
      `<h1 style="font-size:22px;margin:0 0 4px">Payment settings</h1><div style="color:#6b7280;font-size:13px;margin-bottom:16px">Manage how customers pay you and where payouts go.</div>
${banner('Payment method declined', 'Your card ending in 4242 was declined on March 3. Update it to avoid interruption.', 'Update card')}
<div class="card" style="padding:20px;display:grid;grid-template-columns:1fr 1fr;gap:0 24px;max-width:760px">
${field('Legal business name', 'Ledgerly Demo Company')}${field('Statement descriptor', 'LEDGERLY DEMO', 'Shown on your customers’ card statements')}
${field('Payout schedule', 'Weekly on Friday')}${field('Default currency', 'Euro (EUR)')}
${field('Support phone', '+44 20 7946 0958')}${field('Receipt email', 'receipts@ledgerly.example')}
<div style="grid-column:span 2;display:flex;gap:8px;justify-content:flex-end;margin-top:6px"><span class="btn">Discard</span><span class="btn primary">Save payment settings</span></div></div>`,
    ),
  },
  {
    name: 'booking-checkout',
    titles: ['Payment details', 'Harbour View Hotel'],
    viewport: DESK,
    said: 'I am paying for the hotel now, the total looks higher than I expected.',
    html: `<style>${BASE}</style><div style="background:#fff;border-bottom:1px solid #e5e7eb;padding:14px 40px;display:flex;justify-content:space-between"><b style="font-size:16px">Staywell</b><span style="font-size:13px;color:#6b7280">Secure checkout · Need help? Call 0800 123 456</span></div>
<div style="display:flex;gap:28px;padding:24px 40px">
<div style="flex:1.4"><div style="font-size:13px;color:#6b7280;margin-bottom:10px">Details › <b style="color:#111827">Payment</b> › Confirmation</div>
<div class="card" style="padding:20px"><h2 style="font-size:18px;margin:0 0 14px">Payment details</h2>
${field('Name on card', 'Jonas Weber')}${field('Card number', '4000 1234 5678 9010')}
<div style="display:flex;gap:12px"><div style="flex:1">${field('Expiry', '09 / 27')}</div><div style="flex:1">${field('Security code', '•••', 'Three digits on the back')}</div></div>
<div style="font-size:12px;color:#6b7280">Free cancellation until June 12. You will not be charged until you confirm.</div></div></div>
<div style="flex:1"><div class="card" style="padding:20px;font-size:14px"><h2 style="font-size:18px;margin:0 0 12px">Harbour View Hotel</h2><div style="color:#6b7280;font-size:13px;margin-bottom:12px">Deluxe double room · 3 nights · 2 guests</div>
<div style="display:flex;justify-content:space-between;margin:6px 0"><span>Room rate</span><span>€447.00</span></div><div style="display:flex;justify-content:space-between;margin:6px 0"><span>City tax</span><span>€13.50</span></div><div style="display:flex;justify-content:space-between;margin:6px 0"><span>Service fee</span><span>€24.00</span></div>
<div style="display:flex;justify-content:space-between;margin:12px 0;padding-top:10px;border-top:1px solid #e5e7eb;font-weight:700"><span>Total</span><span>€484.50</span></div>
<div class="btn primary" style="display:block;text-align:center;padding:10px">Confirm and pay</div></div></div></div>`,
  },
  {
    name: 'phone-orders',
    titles: ['My orders'],
    viewport: PHONE,
    said: 'On my phone I can see the order but not where it is.',
    html: `<style>${BASE}</style><div style="background:#fff;padding:14px 16px;border-bottom:1px solid #e5e7eb;display:flex;justify-content:space-between;align-items:center"><b style="font-size:17px">My orders</b><span style="font-size:14px;color:#4f46e5">Filter</span></div>
<div style="padding:12px 16px">${[
      ['Order 88213', 'Wireless headphones', 'Out for delivery', 'Arrives today by 8 pm'],
      ['Order 88190', 'Running shoes, size 42', 'Shipped', 'Expected Thursday'],
      ['Order 88102', 'Coffee grinder', 'Delivered', 'Left at front door'],
      ['Order 87954', 'Desk lamp', 'Returned', 'Refund issued to Visa'],
    ]
      .map(([id, item, st, note]) => `<div class="card" style="padding:14px;margin-bottom:10px"><div style="display:flex;justify-content:space-between;font-size:13px;color:#6b7280"><span>${id}</span><span>${st}</span></div><div style="font-size:16px;font-weight:600;margin:6px 0">${item}</div><div style="font-size:14px;color:#374151">${note}</div><div style="margin-top:10px;font-size:14px;color:#4f46e5;font-weight:600">Track package</div></div>`)
      .join('')}</div>
<div style="position:fixed;bottom:0;left:0;right:0;display:flex;justify-content:space-around;background:#fff;border-top:1px solid #e5e7eb;padding:10px 0 24px;font-size:12px;color:#6b7280"><span>Home</span><span>Search</span><span style="color:#4f46e5">Orders</span><span>Account</span></div>`,
  },
  {
    name: 'team-members',
    titles: ['Team members'],
    viewport: DESK,
    said: 'I want to give Lena access to payroll but I only see viewer and editor.',
    html: `<div style="background:#1e293b;color:#e2e8f0;font-size:13px;text-align:center;padding:6px">Scheduled maintenance on Sunday from 02:00 to 04:00 UTC. Timesheets will be read only.</div>${shell(
      { product: 'Crewline', nav: ['Home', 'Projects', 'Team', 'Time off', 'Payroll', 'Settings'], active: 'Team', user: 'Ines Duarte', search: 'Find a person', dark: true },
      `<div style="display:flex;justify-content:space-between;align-items:center;margin-bottom:4px"><h1 style="font-size:22px;margin:0">Team members</h1><span class="btn primary">Invite people</span></div>
<div style="color:#6b7280;font-size:13px;margin-bottom:14px">Invite people and manage what they can see.</div>
<div class="card">${table(
        ['Name', 'Role', 'Email', 'Last active', 'Access'],
        [
          ['Lena Hoffmann', 'Operations lead', '<span style="color:#6b7280">lena@crewline.example</span>', '2 hours ago', badge('Editor', '#1d4ed8', '#dbeafe')],
          ['Marcus Bell', 'Site manager', '<span style="color:#6b7280">marcus@crewline.example</span>', 'Yesterday', badge('Viewer', '#4b5563', '#e5e7eb')],
          ['Aiko Tanaka', 'Payroll specialist', '<span style="color:#6b7280">aiko@crewline.example</span>', '5 minutes ago', badge('Admin', '#047857', '#d1fae5')],
          ['Omar Haddad', 'Foreman', '<span style="color:#6b7280">omar@crewline.example</span>', 'Last week', badge('Viewer', '#4b5563', '#e5e7eb')],
          ['Greta Lind', 'Accountant', '<span style="color:#6b7280">greta@crewline.example</span>', 'Today', badge('Editor', '#1d4ed8', '#dbeafe')],
          ['Diego Ramos', 'Electrician', '<span style="color:#6b7280">diego@crewline.example</span>', 'Never', badge('Invited', '#92400e', '#fef3c7')],
        ],
      )}<div style="padding:10px 12px;font-size:12px;color:#6b7280">Showing 6 of 31 people · Deactivated members are hidden</div></div>`,
    )}`,
  },
  {
    name: 'phone-inbox',
    titles: ['Inbox'],
    viewport: PHONE,
    said: 'The message from the clinic says confirm, but there is no button to confirm.',
    html: `<style>${BASE}</style><div style="background:#0f172a;color:#f8fafc;padding:16px"><div style="font-size:20px;font-weight:700">Inbox</div><div style="font-size:13px;color:#94a3b8;margin-top:4px">3 unread messages</div></div>
<div style="padding:4px 16px">${[
      ['Northside Clinic', '9:41', 'Please confirm your appointment on Friday at 10:30 with Dr. Patel.'],
      ['Parcel Express', '8:15', 'Your parcel could not be delivered. Choose a new delivery day.'],
      ['Maple Bank', 'Yesterday', 'A new device signed in to your account from Lisbon.'],
      ['Book Club', 'Monday', 'This month we are reading a novel about lighthouse keepers.'],
    ]
      .map(([who, when, text]) => `<div style="padding:12px 0;border-bottom:1px solid #e5e7eb"><div style="display:flex;justify-content:space-between"><span style="font-size:15px;font-weight:600">${who}</span><span style="font-size:12px;color:#6b7280">${when}</span></div><div style="font-size:14px;color:#6b7280;margin-top:4px">${text}</div></div>`)
      .join('')}</div>
<div style="position:fixed;bottom:0;left:0;right:0;display:flex;justify-content:space-around;background:#0f172a;color:#cbd5e1;padding:10px 0 22px;font-size:12px"><span style="color:#fff">Inbox</span><span>Calendar</span><span>Contacts</span><span>Settings</span></div>`,
  },
];

const CRM = { product: 'Pipewise', nav: ['Overview', 'Accounts', 'Contacts', 'Deals', 'Billing', 'Integrations'], user: 'Sam Okafor', search: 'Search accounts', dark: true };

export const CHECK_SCREENS: AppScreen[] = [
  {
    name: 'accounts-table',
    titles: ['Accounts'],
    viewport: DESK,
    said: 'These are all my accounts, I want to see which ones are about to churn.',
    html: shell(
      { ...CRM, active: 'Accounts' },
      `<div style="display:flex;justify-content:space-between;align-items:center;margin-bottom:14px"><h1 style="font-size:22px;margin:0">Accounts</h1><div><span class="btn">Import</span> <span class="btn primary">Add account</span></div></div>
<div style="display:flex;gap:10px;margin-bottom:12px"><span class="btn" style="font-size:13px">Owner: Anyone</span><span class="btn" style="font-size:13px">Plan: All plans</span><span class="btn" style="font-size:13px">Renewal: Next 90 days</span></div>
<div class="card">${table(
        ['Account', 'Plan', 'Seats', 'Renewal', 'Health', 'Status'],
        [
          ['Harbor Freight Labs', 'Enterprise', '240', 'May 14', '92', status('Active')],
          ['Kestrel Analytics', 'Growth', '35', 'Apr 30', '41', status('Trial')],
          ['Maple Street Pharmacy', 'Starter', '6', 'Apr 18', '23', status('Churned')],
          ['Quantum Roofing', 'Growth', '52', 'Jun 02', '77', status('Active')],
          ['Lantern Education', 'Enterprise', '410', 'Jul 21', '88', status('Active')],
          ['Pinecrest Veterinary', 'Starter', '9', 'Apr 09', '35', status('Trial')],
          ['Velvet Coffee Roasters', 'Growth', '18', 'May 29', '64', status('Active')],
        ],
      )}<div style="padding:10px 12px;font-size:12px;color:#6b7280">7 of 58 accounts · Sorted by renewal date</div></div>`,
    ),
  },
  {
    name: 'bank-settings',
    titles: ['Billing settings'],
    viewport: DESK,
    said: 'It says the bank connection expired and I have no idea how to fix it.',
    html: shell(
      { ...CRM, active: 'Billing' },
      `<h1 style="font-size:22px;margin:0 0 4px">Billing settings</h1><div style="color:#6b7280;font-size:13px;margin-bottom:16px">Invoices are sent from this account every month.</div>
${banner('Bank connection expired', 'We could not refresh your link to Cobalt Bank since February 27. Payouts are paused until you reconnect.', 'Reconnect bank')}
<div class="card" style="padding:20px;max-width:620px">
${field('Company name', 'Pipewise Holdings GmbH')}${field('Billing email', 'finance@pipewise.example', 'Receipts and failed payment notices go here')}
${field('VAT number', 'DE 811 907 980')}
<div style="display:flex;align-items:center;gap:10px;margin:4px 0 16px;font-size:14px"><span style="width:34px;height:20px;border-radius:10px;background:#4f46e5;display:inline-block"></span>Send payment reminders to customers</div>
<div style="display:flex;gap:8px;justify-content:flex-end"><span class="btn">Cancel</span><span class="btn primary">Save changes</span></div></div>`,
    ),
  },
  {
    name: 'shop-checkout',
    titles: ['Shipping address', 'Order summary'],
    viewport: DESK,
    said: 'Now I am at checkout and I cannot find where to enter my discount code.',
    html: `<style>${BASE}</style><div style="background:#111827;color:#fff;padding:14px 40px;display:flex;justify-content:space-between;font-size:14px"><b style="font-size:16px">Fernwood Supply</b><span>Free shipping on orders over $75</span></div>
<div style="display:flex;gap:28px;padding:24px 40px">
<div style="flex:1.4"><div style="font-size:13px;color:#6b7280;margin-bottom:10px">Cart › <b style="color:#111827">Shipping</b> › Payment › Review</div>
<div class="card" style="padding:20px"><h2 style="font-size:18px;margin:0 0 14px">Shipping address</h2>
<div style="display:flex;gap:12px"><div style="flex:1">${field('First name', 'Priya')}</div><div style="flex:1">${field('Last name', 'Raman')}</div></div>
${field('Street address', '1842 Willow Creek Road')}
<div style="display:flex;gap:12px"><div style="flex:1">${field('City', 'Portland')}</div><div style="flex:1">${field('State', 'Oregon')}</div><div style="flex:1">${field('ZIP code', '97205')}</div></div>
<div style="font-size:12px;color:#6b7280">We only use your phone number for delivery updates.</div></div></div>
<div style="flex:1"><div class="card" style="padding:20px;font-size:14px"><h2 style="font-size:18px;margin:0 0 12px">Order summary</h2>
<div style="display:flex;justify-content:space-between;margin:6px 0"><span>Ceramic planter, large</span><span>$48.00</span></div><div style="display:flex;justify-content:space-between;margin:6px 0"><span>Linen apron</span><span>$32.00</span></div><div style="display:flex;justify-content:space-between;margin:6px 0"><span>Shipping</span><span>Free</span></div><div style="display:flex;justify-content:space-between;margin:6px 0"><span>Estimated tax</span><span>$6.40</span></div>
<div style="display:flex;justify-content:space-between;margin:12px 0;padding-top:10px;border-top:1px solid #e5e7eb;font-weight:700"><span>Total</span><span>$86.40</span></div>
<div class="btn primary" style="display:block;text-align:center;padding:10px">Continue to payment</div></div></div></div>`,
  },
  {
    name: 'phone-transactions',
    titles: ['Available balance', 'Recent transactions'],
    viewport: PHONE,
    said: 'On the phone the pending payment to the landlord is still not showing.',
    html: `<style>${BASE}</style><div style="background:#4f46e5;color:#fff;padding:18px 16px"><div style="font-size:13px;opacity:.9">Available balance</div><div style="font-size:28px;font-weight:700;margin-top:4px">£2,418.36</div><div style="font-size:13px;margin-top:6px">Current account ·· 7731</div></div>
<div style="padding:14px 16px"><div style="font-size:13px;font-weight:600;color:#6b7280;margin-bottom:8px">RECENT TRANSACTIONS</div>${[
      ['Greenline Grocers', 'Card payment · Today', '−£54.20'],
      ['Rent to Oakwood Lettings', 'Standing order · Pending', '−£950.00'],
      ['Salary from Brightside Media', 'Transfer · Yesterday', '+£2,870.00'],
      ['Metro Transit', 'Contactless · Monday', '−£3.10'],
      ['Cinema Paradiso', 'Card payment · Sunday', '−£18.50'],
    ]
      .map(([who, how, amount]) => `<div style="display:flex;justify-content:space-between;align-items:center;padding:12px 0;border-bottom:1px solid #e5e7eb"><div><div style="font-size:15px;font-weight:600">${who}</div><div style="font-size:13px;color:#6b7280;margin-top:2px">${how}</div></div><div style="font-size:15px;font-weight:600">${amount}</div></div>`)
      .join('')}</div>
<div style="position:fixed;bottom:0;left:0;right:0;display:flex;justify-content:space-around;background:#fff;border-top:1px solid #e5e7eb;padding:10px 0 24px;font-size:12px;color:#6b7280"><span style="color:#4f46e5">Home</span><span>Payments</span><span>Cards</span><span>Profile</span></div>`,
  },
];

/**
 * The words a person sees on the page: every text node and form value inside the viewport,
 * split on white space. Punctuation around words is kept here; `words` normalises.
 */
export async function visibleText(page: Page): Promise<string> {
  // A string, run in the page: the test code has no DOM types.
  return page.evaluate(`(() => {
    const w = window.innerWidth;
    const h = window.innerHeight;
    const inView = (r) => r.width > 0 && r.height > 0 && r.bottom > 0 && r.right > 0 && r.top < h && r.left < w;
    const out = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const parent = n.parentElement;
      if (!parent || ['STYLE', 'SCRIPT'].includes(parent.tagName) || !n.textContent.trim()) continue;
      const range = document.createRange();
      range.selectNodeContents(n);
      if ([...range.getClientRects()].some(inView)) out.push(getComputedStyle(parent).textTransform === 'uppercase' ? n.textContent.toUpperCase() : n.textContent);
    }
    for (const input of document.querySelectorAll('input')) if (input.value && inView(input.getBoundingClientRect())) out.push(input.value);
    return out.join('\\n');
  })()`);
}

/** One screenshot of a screen and the text on it. */
export async function renderScreen(browser: Browser, screen: AppScreen): Promise<{ png: Buffer; text: string }> {
  const context = await browser.newContext({ viewport: { width: screen.viewport.width, height: screen.viewport.height }, deviceScaleFactor: screen.viewport.scale ?? 1 });
  try {
    const page = await context.newPage();
    await page.setContent(screen.html);
    return { png: await page.screenshot(), text: await visibleText(page) };
  } finally {
    await context.close();
  }
}

/** Lower-cased tokens of a text, with the punctuation around each word taken off ("$1,240.00," is "1,240.00"). */
export function words(text: string): string[] {
  return text
    .split(/\s+/)
    .map((t) => t.toLowerCase().replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ''))
    .filter(Boolean);
}

export interface OcrScore {
  /** On-screen words of three letters or more (distinct per screen). */
  screenWords: number;
  /** Of those, the ones found among the OCR tokens. */
  found: number;
  /** OCR tokens (with repeats). */
  ocrTokens: number;
  /** OCR tokens that are no token on the screen: misreadings and invented text. */
  garbage: number;
}

/** How much of a screen's text OCR read (recall of words ≥ 3 letters) and how much of what it read is not there. */
export function scoreOcr(screenText: string, ocrText: string): OcrScore {
  const truth = words(screenText);
  const read = words(ocrText);
  const readSet = new Set(read);
  const truthSet = new Set(truth);
  const wanted = [...new Set(truth.filter((w) => /^\p{L}{3,}$/u.test(w)))];
  return {
    screenWords: wanted.length,
    found: wanted.filter((w) => readSet.has(w)).length,
    ocrTokens: read.length,
    garbage: read.filter((w) => !truthSet.has(w)).length,
  };
}

export function sumScores(scores: OcrScore[]): OcrScore & { recall: number; garbageShare: number } {
  const s = scores.reduce((a, b) => ({ screenWords: a.screenWords + b.screenWords, found: a.found + b.found, ocrTokens: a.ocrTokens + b.ocrTokens, garbage: a.garbage + b.garbage }), { screenWords: 0, found: 0, ocrTokens: 0, garbage: 0 });
  return { ...s, recall: s.found / Math.max(1, s.screenWords), garbageShare: s.garbage / Math.max(1, s.ocrTokens) };
}

export interface Recording {
  file: string;
  /** When each screen appears, in ms, in order. */
  shownAtMs: number[];
  /** What was said, when (seconds), as a transcription service would return it. */
  segments: Array<{ start: number; end: number; text: string }>;
}

/**
 * A screen recording as a person would make one: each screenshot held for `secondsEach` at 25
 * frames a second (H.264, yuv420p), with the participant's speech (espeak-ng) starting one
 * second after each screen appears. All screens must share a viewport.
 */
export async function recordScreens(ffmpeg: string, dir: string, name: string, shots: Buffer[], said: string[], secondsEach: number): Promise<Recording> {
  fs.mkdirSync(dir, { recursive: true });
  const segments: Recording['segments'] = [];
  const inputs: string[] = [];
  const delays: string[] = [];
  for (const [i, png] of shots.entries()) {
    fs.writeFileSync(path.join(dir, `${name}-shot-${i + 1}.png`), png);
    const espeak = await ESpeakNg({ arguments: ['-w', 'out.wav', '-v', 'en-us', said[i]] });
    const wav = path.join(dir, `${name}-said-${i + 1}.wav`);
    fs.writeFileSync(wav, espeak.FS.readFile('out.wav'));
    const start = i * secondsEach + 1;
    // espeak speaks at ~175 words a minute.
    segments.push({ start, end: Math.min(start + said[i].split(' ').length * 0.35, (i + 1) * secondsEach), text: said[i] });
    inputs.push('-i', wav);
    delays.push(`[${i + 2}:a]adelay=${start * 1000}|${start * 1000}[a${i}]`);
  }
  const seconds = shots.length * secondsEach;
  const list = path.join(dir, `${name}-shots.txt`);
  fs.writeFileSync(list, shots.map((_, i) => `file '${name}-shot-${i + 1}.png'\nduration ${secondsEach}\n`).join('') + `file '${name}-shot-${shots.length}.png'\n`);
  const out = path.join(dir, `${name}.mp4`);
  // The speech mixed over silence as long as the video (input 1), each clip delayed to its moment.
  execFileSync(ffmpeg, [
    '-v', 'error', '-y', '-f', 'concat', '-safe', '0', '-i', list, '-f', 'lavfi', '-t', String(seconds), '-i', 'anullsrc=r=22050:cl=mono', ...inputs,
    '-filter_complex', `${delays.join(';')};[1:a]${shots.map((_, i) => `[a${i}]`).join('')}amix=inputs=${shots.length + 1}:duration=first:dropout_transition=0,volume=${shots.length + 1}[a]`,
    '-map', '0:v', '-map', '[a]', '-t', String(seconds), '-r', '25', '-vf', 'scale=trunc(iw/2)*2:trunc(ih/2)*2', '-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-c:a', 'aac', out,
  ], { cwd: dir });
  return { file: out, shownAtMs: shots.map((_, i) => i * secondsEach * 1000), segments };
}
