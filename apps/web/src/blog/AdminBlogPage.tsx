import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import FormControlLabel from '@mui/material/FormControlLabel';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { BlogPost } from '@tandem/shared';
import { useState, type FormEvent } from 'react';
import { ApiError } from '../api/client';
import { useBlogPosts, useSaveBlogPost } from './api';

const EMPTY = { id: undefined as string | undefined, title: '', author: '', content: '', published: true };

/** The admin blog editor (/admin/blog, product admins only: App.tsx): list every post, create or edit one. */
export function AdminBlogPage() {
  const posts = useBlogPosts(true);
  const save = useSaveBlogPost();
  const [draft, setDraft] = useState(EMPTY);
  const [status, setStatus] = useState<{ ok: boolean; text: string } | null>(null);

  const edit = (post: BlogPost) => {
    setDraft({
      id: post.id,
      title: post.title,
      author: post.author,
      content: post.content,
      published: post.published,
    });
    setStatus(null);
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      const saved = await save(draft);
      setDraft({ ...draft, id: saved.id, content: saved.content });
      setStatus({ ok: true, text: `Saved as ${saved.url}` });
    } catch (error) {
      setStatus({
        ok: false,
        text: error instanceof ApiError ? error.serverMessage : 'Saving failed. Please try again.',
      });
    }
  };

  return (
    <Container maxWidth="lg" sx={{ py: 4 }}>
      <Typography variant="h4" component="h1" gutterBottom>
        Blog editor
      </Typography>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={4}>
        <List dense sx={{ minWidth: 260 }} aria-label="Posts">
          {/* Buttons inside list items: a <ul> may only hold <li> (axe "list"). */}
          <ListItem disablePadding>
            <ListItemButton onClick={() => setDraft(EMPTY)} selected={!draft.id}>
              <ListItemText primary="New post" />
            </ListItemButton>
          </ListItem>
          {(posts.data ?? []).map((post) => (
            <ListItem disablePadding key={post.id}>
              <ListItemButton onClick={() => edit(post)} selected={draft.id === post.id}>
                <ListItemText
                  primary={post.title}
                  secondary={post.published ? post.id : `${post.id} (draft)`}
                />
              </ListItemButton>
            </ListItem>
          ))}
        </List>
        <Stack component="form" spacing={2} sx={{ flexGrow: 1 }} onSubmit={(event) => void submit(event)}>
          <TextField
            label="Title"
            required
            value={draft.title}
            onChange={(e) => setDraft({ ...draft, title: e.target.value })}
          />
          <TextField
            label="Author"
            required
            value={draft.author}
            onChange={(e) => setDraft({ ...draft, author: e.target.value })}
          />
          <TextField
            label="Content (HTML)"
            multiline
            minRows={12}
            value={draft.content}
            onChange={(e) => setDraft({ ...draft, content: e.target.value })}
          />
          <FormControlLabel
            control={
              <Switch
                checked={draft.published}
                onChange={(e) => setDraft({ ...draft, published: e.target.checked })}
              />
            }
            label="Published"
          />
          {status ? <Alert severity={status.ok ? 'success' : 'error'}>{status.text}</Alert> : null}
          <Button type="submit" variant="contained" sx={{ alignSelf: 'flex-start' }}>
            Save post
          </Button>
        </Stack>
      </Stack>
    </Container>
  );
}

export default AdminBlogPage;
