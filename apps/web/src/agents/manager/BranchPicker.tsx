import AccountTreeIcon from '@mui/icons-material/AccountTreeOutlined';
import ClearIcon from '@mui/icons-material/Clear';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Popover from '@mui/material/Popover';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { BRANCH_DATA_ERROR, branchNameError } from '@tandem/shared';
import { useId, useRef, useState } from 'react';
import { useRepositoryBranches } from './use-repository-branches';

export const BRANCH_PICKER_NOTE = "Select a base branch. It will be created if it doesn't exist.";
const SHOWN_BRANCHES = 50;

/**
 * The new agent's base branch (workspace §2): a button showing the current choice, opening a menu
 * with the note, a filter field (placeholder: the default branch) and the matching branches. Enter
 * takes the typed name, even a new one (the agent then creates it); the clear button unsets it.
 */
export function BranchPicker(props: {
  /** The repository when it is one the user can reach, else null (nothing to list). */
  repository: string | null;
  value: string | null;
  disabled?: boolean;
  onChange: (branch: string | null) => void;
}) {
  const anchor = useRef<HTMLButtonElement>(null);
  const [open, setOpen] = useState(false);
  const [draft, setDraft] = useState('');
  const listId = useId();
  const branches = useRepositoryBranches(open ? props.repository : null);
  const defaultBranch = branches.data?.default_branch;
  const typed = draft.trim();
  const problem = typed ? branchNameError(typed) : null;
  const matches = (branches.data?.branches ?? [])
    .filter((b) => b.name.toLowerCase().includes(typed.toLowerCase()))
    .slice(0, SHOWN_BRANCHES);

  const choose = (branch: string | null) => {
    props.onChange(branch);
    setOpen(false);
  };

  return (
    <>
      <Button
        ref={anchor}
        variant="outlined"
        color="inherit"
        size="small"
        startIcon={<AccountTreeIcon />}
        disabled={props.disabled}
        aria-label={`Base branch: ${props.value ?? 'Default Branch'}`}
        aria-haspopup="dialog"
        onClick={() => {
          setDraft(props.value ?? '');
          setOpen(true);
        }}
        sx={{ textTransform: 'none', maxWidth: '100%', justifyContent: 'flex-start' }}
      >
        <Box component="span" sx={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
          {props.value ?? 'Default Branch'}
        </Box>
      </Button>
      <Popover
        open={open}
        anchorEl={anchor.current}
        onClose={() => setOpen(false)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'left' }}
        slotProps={{
          paper: { role: 'dialog', 'aria-label': 'Base branch', sx: { p: 2, width: 340, maxWidth: '90vw' } },
        }}
      >
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          {BRANCH_PICKER_NOTE}
        </Typography>
        <TextField
          autoFocus
          fullWidth
          size="small"
          label="Base branch"
          placeholder={defaultBranch ?? 'Default Branch'}
          value={draft}
          error={problem !== null}
          helperText={problem ?? ' '}
          onChange={(event) => setDraft(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter') {
              event.preventDefault();
              if (!problem) choose(typed || null);
            }
          }}
          slotProps={{
            htmlInput: { 'aria-controls': listId },
            input: {
              endAdornment: (
                <InputAdornment position="end">
                  <IconButton
                    size="small"
                    aria-label="Clear base branch"
                    onClick={() => {
                      setDraft('');
                      props.onChange(null);
                    }}
                  >
                    <ClearIcon fontSize="small" />
                  </IconButton>
                </InputAdornment>
              ),
            },
          }}
        />
        {props.repository === null ? (
          <Typography variant="body2" color="text.secondary">
            Choose a repository to list its branches.
          </Typography>
        ) : branches.isPending ? (
          <Typography variant="body2" color="text.secondary" role="status">
            Loading Branches...
          </Typography>
        ) : branches.isError ? (
          <Typography variant="body2" color="error" role="alert">
            {BRANCH_DATA_ERROR}
          </Typography>
        ) : (
          <List id={listId} dense aria-label="Branches" sx={{ maxHeight: 240, overflow: 'auto' }}>
            {matches.map((branch) => (
              <ListItem key={branch.name} disablePadding>
                <ListItemButton selected={branch.name === props.value} onClick={() => choose(branch.name)}>
                  <ListItemText
                    primary={branch.name}
                    secondary={branch.name === defaultBranch ? 'default' : null}
                  />
                </ListItemButton>
              </ListItem>
            ))}
          </List>
        )}
      </Popover>
    </>
  );
}
