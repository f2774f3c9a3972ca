import { DataTypes, Model, type ModelStatic, type Sequelize } from 'sequelize';

type Creation<T, O extends keyof T> = Omit<T, O> & Partial<Pick<T, O>>;
type Timestamps = { created_at: Date; updated_at: Date };
type Row<T extends object, O extends keyof T> = Model<T, Creation<T, O>> & T;

export type Role = 'owner' | 'admin' | 'member';

export interface UserAttrs extends Timestamps {
  id: string;
  email: string;
  name: string | null;
  is_admin: boolean;
  personal_org_id: string | null;
  onboarding_json: Record<string, unknown> | null;
}
export interface UserSessionAttrs extends Timestamps {
  id: string;
  user_id: string;
  origin: string;
  expires_at: Date;
  revoked_at: Date | null;
}
export interface OrganizationAttrs extends Timestamps {
  id: string;
  handle: string;
  name: string;
  personal: boolean;
}
export interface MembershipAttrs extends Timestamps {
  id: string;
  organization_id: string;
  user_id: string;
  role: Role;
}
export interface ProjectAttrs extends Timestamps {
  id: string;
  organization_id: string;
  handle: string;
  name: string;
  description: string | null;
  codehost_repo_url: string | null;
  codehost_default_branch: string;
  codehost_installation_id: string | null;
  tracker_team_id: string | null;
  public_key: string;
}
export interface StudyAttrs extends Timestamps {
  id: string;
  project_id: string;
  handle: string;
  title: string;
  description: string | null;
  status: string;
  goals_json: string | null;
  script_json: string | null;
  settings_json: string | null;
  invitation_json: Record<string, unknown> | null;
  visibility_json: Record<string, unknown> | null;
  allowed_origins: string[];
  allowed_selectors: string[];
  intake_id: string | null;
  version: number;
}
export interface ProjectSettingAttrs extends Timestamps {
  project_id: string;
  key: string;
  value: string | null;
  ciphertext: string | null;
  key_id: string | null;
  updated_by: string | null;
  last_success_at: Date | null;
  last_error_at: Date | null;
  last_error: string | null;
}

type TS = 'created_at' | 'updated_at';
export type UserRow = Row<UserAttrs, TS | 'name' | 'is_admin' | 'personal_org_id' | 'onboarding_json'>;
export type UserSessionRow = Row<UserSessionAttrs, TS | 'revoked_at'>;
export type OrganizationRow = Row<OrganizationAttrs, TS | 'personal'>;
export type MembershipRow = Row<MembershipAttrs, TS>;
export type ProjectRow = Row<ProjectAttrs, TS | 'description' | 'codehost_repo_url' | 'codehost_default_branch' | 'codehost_installation_id' | 'tracker_team_id'>;
export type StudyRow = Row<StudyAttrs, TS | 'description' | 'goals_json' | 'script_json' | 'settings_json' | 'invitation_json' | 'visibility_json' | 'allowed_origins' | 'allowed_selectors' | 'intake_id' | 'version'>;
export type ProjectSettingRow = Row<ProjectSettingAttrs, TS | 'value' | 'ciphertext' | 'key_id' | 'updated_by' | 'last_success_at' | 'last_error_at' | 'last_error'>;

// Sequelize mutates attribute definitions, so every attribute gets a fresh object.
const text = () => ({ type: DataTypes.TEXT });
const nullableText = () => ({ type: DataTypes.TEXT, allowNull: true });
const json = () => ({ type: DataTypes.JSONB, allowNull: true });
const when = () => ({ type: DataTypes.DATE, allowNull: true });

/**
 * Models are defined per Sequelize instance (not with global classes), so two services
 * in one process — tests, the benchmark — never share a connection by accident.
 */
export function defineModels(sequelize: Sequelize) {
  const User = sequelize.define<UserRow>('User', {
    id: { ...text(), primaryKey: true },
    email: { ...text(), allowNull: false },
    name: nullableText(),
    is_admin: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
    personal_org_id: nullableText(),
    onboarding_json: json(),
  } as never, { tableName: 'users' }) as ModelStatic<UserRow>;

  const UserSession = sequelize.define<UserSessionRow>('UserSession', {
    id: { ...text(), primaryKey: true },
    user_id: { ...text(), allowNull: false },
    origin: { ...text(), allowNull: false },
    expires_at: { type: DataTypes.DATE, allowNull: false },
    revoked_at: when(),
  } as never, { tableName: 'user_sessions' }) as ModelStatic<UserSessionRow>;

  const Organization = sequelize.define<OrganizationRow>('Organization', {
    id: { ...text(), primaryKey: true },
    handle: { ...text(), allowNull: false },
    name: { ...text(), allowNull: false },
    personal: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
  } as never, { tableName: 'organizations' }) as ModelStatic<OrganizationRow>;

  const Membership = sequelize.define<MembershipRow>('Membership', {
    id: { ...text(), primaryKey: true },
    organization_id: { ...text(), allowNull: false },
    user_id: { ...text(), allowNull: false },
    role: { ...text(), allowNull: false },
  } as never, { tableName: 'memberships' }) as ModelStatic<MembershipRow>;

  const Project = sequelize.define<ProjectRow>('Project', {
    id: { ...text(), primaryKey: true },
    organization_id: { ...text(), allowNull: false },
    handle: { ...text(), allowNull: false },
    name: { ...text(), allowNull: false },
    description: nullableText(),
    codehost_repo_url: nullableText(),
    codehost_default_branch: { ...text(), allowNull: false, defaultValue: 'main' },
    codehost_installation_id: nullableText(),
    tracker_team_id: nullableText(),
    public_key: { ...text(), allowNull: false },
  } as never, { tableName: 'projects' }) as ModelStatic<ProjectRow>;

  const Study = sequelize.define<StudyRow>('Study', {
    id: { ...text(), primaryKey: true },
    project_id: { ...text(), allowNull: false },
    handle: { ...text(), allowNull: false },
    title: { ...text(), allowNull: false },
    description: nullableText(),
    status: { ...text(), allowNull: false },
    goals_json: nullableText(),
    script_json: nullableText(),
    settings_json: nullableText(),
    invitation_json: json(),
    visibility_json: json(),
    allowed_origins: { type: DataTypes.JSONB, allowNull: false, defaultValue: [] },
    allowed_selectors: { type: DataTypes.JSONB, allowNull: false, defaultValue: [] },
    intake_id: nullableText(),
    version: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 1 },
  } as never, { tableName: 'studies' }) as ModelStatic<StudyRow>;

  const ProjectSetting = sequelize.define<ProjectSettingRow>('ProjectSetting', {
    project_id: { ...text(), primaryKey: true },
    key: { ...text(), primaryKey: true },
    value: nullableText(),
    ciphertext: nullableText(),
    key_id: nullableText(),
    updated_by: nullableText(),
    last_success_at: when(),
    last_error_at: when(),
    last_error: nullableText(),
  } as never, { tableName: 'project_settings' }) as ModelStatic<ProjectSettingRow>;

  return { User, UserSession, Organization, Membership, Project, Study, ProjectSetting };
}

export type Models = ReturnType<typeof defineModels>;
