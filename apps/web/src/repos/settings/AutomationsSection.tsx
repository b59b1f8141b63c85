import type { RepositorySettings, UpdateRepositorySettings } from '@tandem/shared';
import { SettingSwitch } from './SettingSwitch';
import { SettingsSection } from './SettingsSection';

/** Automations: stored here; the code-host events that act on them come with the GitHub-events work. */
export function AutomationsSection(props: {
  settings: RepositorySettings;
  onChange: (change: UpdateRepositorySettings) => void;
}) {
  const { settings, onChange } = props;
  return (
    <SettingsSection id="automations" title="Automations">
      <SettingSwitch
        label="Always ask"
        description="Agents started from issues and pull requests ask before they start work."
        checked={settings.always_ask}
        onChange={(checked) => onChange({ always_ask: checked })}
      />
      <SettingSwitch
        label="Always review"
        description="Review every pull request opened in this repository."
        checked={settings.always_review}
        onChange={(checked) => onChange({ always_review: checked })}
      />
      <SettingSwitch
        label="Auto fix"
        description="When checks fail on an agent's pull request, the agent tries to fix them."
        checked={settings.auto_fix}
        onChange={(checked) => onChange({ auto_fix: checked })}
      />
    </SettingsSection>
  );
}
