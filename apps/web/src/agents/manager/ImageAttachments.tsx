import CancelIcon from '@mui/icons-material/Cancel';
import AddPhotoAlternateOutlinedIcon from '@mui/icons-material/AddPhotoAlternateOutlined';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import { useRef } from 'react';
import type { ImageAttachment } from './image-files';

/** The attach button (a picker for `image/*` files) and a chip per attached image. */
export function ImageAttachments(props: {
  images: ImageAttachment[];
  disabled?: boolean;
  onAdd: (files: File[]) => void;
  onRemove: (index: number) => void;
}) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1, flex: 1 }}>
      <input
        ref={input}
        type="file"
        accept="image/*"
        multiple
        hidden
        data-testid="attach-images-input"
        onChange={(event) => {
          props.onAdd(Array.from(event.target.files ?? []));
          // The same file can be picked again after it was removed.
          event.target.value = '';
        }}
      />
      <Tooltip title="Attach images">
        <span>
          <IconButton
            aria-label="Attach images"
            disabled={props.disabled}
            onClick={() => input.current?.click()}
          >
            <AddPhotoAlternateOutlinedIcon />
          </IconButton>
        </span>
      </Tooltip>
      {props.images.map((image, index) => (
        <Chip
          key={`${image.name}-${index}`}
          label={image.name}
          size="small"
          disabled={props.disabled}
          onDelete={() => props.onRemove(index)}
          deleteIcon={<CancelIcon titleAccess={`Remove ${image.name}`} />}
        />
      ))}
    </Stack>
  );
}
