import Stack from '@mui/material/Stack';
import {
  LEDGER_UNITS_PER_CREDIT,
  type RepositorySettings,
  type UpdateRepositorySettings,
} from '@tandem/shared';
import type { AvailableModel } from '../../agents/manager/model-choice';
import { BudgetField } from './BudgetField';
import { DefaultModelSelect } from './DefaultModelSelect';
import { SettingSwitch } from './SettingSwitch';
import { SettingsSection } from './SettingsSection';

/** Bot Behavior (`#behavior`, linked from the over-budget notice): models, budget, sharing. */
export function BotBehaviorSection(props: {
  settings: RepositorySettings;
  models: readonly AvailableModel[];
  onChange: (change: UpdateRepositorySettings) => void;
}) {
  const { settings, onChange } = props;
  return (
    <SettingsSection id="behavior" title="Bot Behavior">
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
        <DefaultModelSelect
          kind="core"
          label="Default model"
          helper="The model new agents start with."
          models={props.models}
          value={settings.default_model}
          onChange={(key) => onChange({ default_model: key })}
        />
        <DefaultModelSelect
          kind="review"
          label="Default review model"
          helper="The model that reviews new agents' work."
          models={props.models}
          value={settings.default_review_model}
          onChange={(key) => onChange({ default_review_model: key })}
        />
      </Stack>
      <BudgetField
        cents={Math.round(settings.credit_limit / LEDGER_UNITS_PER_CREDIT)}
        onConfirm={(cents) => onChange({ credit_limit: cents * LEDGER_UNITS_PER_CREDIT })}
      />
      <SettingSwitch
        label="Agents public"
        description="Everyone in the installation can see this repository's agents, not only their creators."
        checked={settings.agents_public}
        onChange={(checked) => onChange({ agents_public: checked })}
      />
    </SettingsSection>
  );
}
