import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { ASSET_MAX_BYTES, ASSET_TYPES, CSRF_HEADER, type AssetMode } from '@tandem/shared';
import { useState, type ChangeEvent } from 'react';
import { useCurrentUser } from '../auth/current-user';
import { useThemeMode } from '../theme/ThemeModeProvider';

/**
 * An image from /asset, in the variant for the current theme. Admins hovering it can upload a
 * replacement for the light or the dark theme (platform §2).
 */
export function EditableImage({ assetId, alt, height }: { assetId: string; alt: string; height: number }) {
  const { user } = useCurrentUser();
  const { mode } = useThemeMode();
  const [version, setVersion] = useState(0);
  const [missing, setMissing] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const src = `/asset/${mode}/${encodeURIComponent(assetId)}?v=${version}`;

  const upload = async (variant: AssetMode, event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    if (!(ASSET_TYPES as readonly string[]).includes(file.type))
      return setError('Use a PNG, JPEG, GIF or WebP image.');
    if (file.size > ASSET_MAX_BYTES) return setError('Images may be at most 5 MB.');
    const form = new FormData();
    form.append('file', file);
    const response = await fetch(`/asset/${variant}/${encodeURIComponent(assetId)}`, {
      method: 'POST',
      body: form,
      credentials: 'same-origin',
      headers: { [CSRF_HEADER]: '1' },
    });
    if (!response.ok) return setError('Upload failed. Please try again.');
    setError(null);
    setMissing(false);
    setVersion((v) => v + 1);
  };

  if (missing && !user?.admin) return null;
  return (
    <Box sx={{ position: 'relative', '&:hover .replace-image': { opacity: 1 } }}>
      {missing ? (
        <Box sx={{ height, bgcolor: 'action.hover', borderRadius: 1 }} />
      ) : (
        <Box
          component="img"
          src={src}
          alt={alt}
          onError={() => setMissing(true)}
          sx={{ width: '100%', height, objectFit: 'cover', borderRadius: 1, display: 'block' }}
        />
      )}
      {user?.admin ? (
        <Stack
          className="replace-image"
          direction="row"
          spacing={1}
          sx={{
            position: 'absolute',
            top: 8,
            right: 8,
            opacity: 0,
            transition: 'opacity 150ms',
            '&:focus-within': { opacity: 1 },
          }}
        >
          {(['light', 'dark'] as const).map((variant) => (
            <Button key={variant} component="label" size="small" variant="contained">
              Replace ({variant})
              <input
                hidden
                type="file"
                accept={ASSET_TYPES.join(',')}
                onChange={(event) => void upload(variant, event)}
              />
            </Button>
          ))}
        </Stack>
      ) : null}
      {error ? (
        <Box role="alert" sx={{ color: 'error.main', mt: 1 }}>
          {error}
        </Box>
      ) : null}
    </Box>
  );
}
