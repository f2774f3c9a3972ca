import { ProjectNav } from '../project-nav.tsx';
import { ModelKeys } from '../settings/model-keys.tsx';
import { WidgetInstall } from '../settings/widget-install.tsx';
import { Integrations } from '../settings/integrations.tsx';
import { Members } from '../settings/members.tsx';
import { DataExport } from '../settings/exports.tsx';
import { DangerZone } from '../settings/danger-zone.tsx';

/** A project's settings: model keys, the widget, integrations, people, exports and deletion. */
export function ProjectSettings({ org, project }: { org: string; project: string }) {
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
