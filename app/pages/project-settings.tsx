import { useEffect } from 'react';
import { ProjectNav } from '../project-nav.tsx';
import { ModelKeys } from '../settings/model-keys.tsx';
import { WidgetInstall } from '../settings/widget-install.tsx';
import { Integrations } from '../settings/integrations.tsx';
import { Members } from '../settings/members.tsx';
import { DataExport } from '../settings/exports.tsx';
import { DangerZone } from '../settings/danger-zone.tsx';

/** A project's settings: model keys, the widget, integrations, people, exports and deletion. */
export function ProjectSettings({ org, project }: { org: string; project: string }) {
  // Sent here for one part ("…/settings#integrations" from a finding that could not be sent, "#widget" from a new project's home).
  // The parts above it grow as their data arrives: it is scrolled to again until then, unless the person scrolls first.
  useEffect(() => {
    if (!location.hash) return;
    const go = () => document.getElementById(decodeURIComponent(location.hash.slice(1)))?.scrollIntoView();
    const timers = [0, 300, 800, 1500].map((ms) => setTimeout(go, ms));
    const stop = () => timers.forEach(clearTimeout);
    const events = ['wheel', 'keydown', 'touchstart', 'mousedown'] as const;
    events.forEach((e) => addEventListener(e, stop, { once: true }));
    return () => {
      stop();
      events.forEach((e) => removeEventListener(e, stop));
    };
  }, []);
  return (
    <>
      <ProjectNav org={org} project={project} />
      <h1>Settings</h1>
      <ModelKeys org={org} project={project} />
      <WidgetInstall org={org} project={project} />
      <Integrations org={org} project={project} />
      <Members org={org} />
      <DataExport />
      <DangerZone org={org} project={project} />
    </>
  );
}
