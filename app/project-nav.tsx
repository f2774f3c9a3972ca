import { Link, useRoute } from 'wouter';

const AREAS = [
  ['', 'Home'],
  ['/interviews', 'Interviews'],
  ['/evidence', 'Evidence'],
  ['/findings', 'Findings'],
  ['/studies', 'Studies'],
  ['/settings', 'Settings'],
] as const;

/** The project's areas; the current one is marked for screen readers. */
export function ProjectNav({ org, project }: { org: string; project: string }) {
  const base = `/p/${org}/${project}`;
  return (
    <nav aria-label="Project" className="project-nav">
      {AREAS.map(([suffix, label]) => (
        <AreaLink key={label} href={`${base}${suffix}`} label={label} exact={suffix === ''} />
      ))}
    </nav>
  );
}

function AreaLink({ href, label, exact }: { href: string; label: string; exact: boolean }) {
  const [active] = useRoute(exact ? href : `${href}/*?`);
  return (
    <Link href={href} aria-current={active ? 'page' : undefined}>
      {label}
    </Link>
  );
}
