import CheckIcon from '@mui/icons-material/Check';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import TextField from '@mui/material/TextField';
import { AGENT_BUDGET_MAX_CENTS, budgetError } from '@tandem/shared';
import { useState } from 'react';

const HELP = 'Credits (cents) an agent may spend since the last message before it stops and asks.';

/** What is wrong with a typed budget, or null. */
function draftError(draft: string): string | null {
  if (!/^\d+$/.test(draft.trim())) return 'Enter a whole number of cents';
  return budgetError(Number(draft));
}

/**
 * The per-agent budget in whole cents (platform §4): editing shows a confirm button; Enter
 * confirms, Escape or leaving the field cancels. Out-of-range values say 'Minimum {n}' or
 * 'Maximum {n}' and are not sent.
 */
export function BudgetField(props: {
  cents: number;
  disabled?: boolean;
  onConfirm: (cents: number) => void;
}) {
  const [draft, setDraft] = useState<string | null>(null);
  const editing = draft !== null && draft !== String(props.cents);
  const problem = editing ? draftError(draft) : null;

  const confirm = () => {
    if (!editing || problem) return;
    props.onConfirm(Number(draft));
    setDraft(null);
  };

  return (
    <TextField
      label="Agent budget (¢)"
      size="small"
      value={draft ?? String(props.cents)}
      disabled={props.disabled}
      error={problem !== null}
      helperText={problem ?? HELP}
      sx={{ maxWidth: 360 }}
      onChange={(event) => setDraft(event.target.value.replace(/[^\d]/g, ''))}
      onBlur={() => setDraft(null)}
      onKeyDown={(event) => {
        if (event.key === 'Enter') {
          event.preventDefault();
          confirm();
        } else if (event.key === 'Escape') {
          setDraft(null);
        }
      }}
      slotProps={{
        htmlInput: { inputMode: 'numeric', maxLength: String(AGENT_BUDGET_MAX_CENTS).length + 2 },
        input: {
          endAdornment: editing ? (
            <InputAdornment position="end">
              <IconButton
                aria-label="Confirm budget"
                edge="end"
                size="small"
                disabled={problem !== null}
                // Keeps the focus in the field: a blur would cancel the edit before the click lands.
                onMouseDown={(event) => event.preventDefault()}
                onClick={confirm}
              >
                <CheckIcon fontSize="small" />
              </IconButton>
            </InputAdornment>
          ) : undefined,
        },
      }}
    />
  );
}
