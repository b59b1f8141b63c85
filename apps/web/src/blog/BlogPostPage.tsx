import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Container from '@mui/material/Container';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { BLOG_MESSAGES, coverImageId } from '@tandem/shared';
import DOMPurify from 'dompurify';
import { useMemo } from 'react';
import { Link as RouterLink, useParams } from 'react-router';
import { ApiError } from '../api/client';
import { PageSpinner } from '../layout/PageSpinner';
import { usePageTitle } from '../lib/page-title';
import { useBlogPost } from './api';
import { EditableImage } from './EditableImage';

export function BlogPostPage() {
  const { postId = '' } = useParams();
  const post = useBlogPost(postId);
  usePageTitle(post.data ? `${post.data.title} ·` : undefined);
  // Sanitised on the server when saved, and again here: the page never trusts stored HTML.
  const html = useMemo(() => (post.data ? DOMPurify.sanitize(post.data.content) : ''), [post.data]);

  let body;
  if (post.isPending) body = <PageSpinner />;
  else if (post.isError) {
    body =
      post.error instanceof ApiError && post.error.status === 404 ? (
        <Typography variant="h5" component="h1">
          {BLOG_MESSAGES.notFound}
        </Typography>
      ) : (
        <Alert severity="error">{BLOG_MESSAGES.listError}</Alert>
      );
  } else {
    body = (
      <article>
        <EditableImage assetId={coverImageId(post.data.id)} alt="" height={280} />
        <Typography variant="h3" component="h1" sx={{ mt: 3 }}>
          {post.data.title}
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 3 }}>
          {post.data.author} ·{' '}
          <time dateTime={post.data.created_at}>{new Date(post.data.created_at).toLocaleDateString()}</time>
        </Typography>
        <Box
          sx={{ '& img': { maxWidth: '100%' }, '& a': { color: 'primary.main' } }}
          dangerouslySetInnerHTML={{ __html: html }}
        />
      </article>
    );
  }
  return (
    <Container maxWidth="md" sx={{ py: 6 }}>
      <Link component={RouterLink} to="/blog" sx={{ display: 'inline-block', mb: 2 }}>
        ← Blog
      </Link>
      {body}
    </Container>
  );
}

export default BlogPostPage;
