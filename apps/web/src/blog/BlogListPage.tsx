import Alert from '@mui/material/Alert';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardContent from '@mui/material/CardContent';
import Container from '@mui/material/Container';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { BLOG_MESSAGES, coverImageId, relativeTime } from '@tandem/shared';
import { Link as RouterLink } from 'react-router';
import { PageSpinner } from '../layout/PageSpinner';
import { usePageTitle } from '../lib/page-title';
import { useBlogPosts } from './api';
import { EditableImage } from './EditableImage';

export function BlogListPage() {
  usePageTitle('Blog ·');
  const posts = useBlogPosts();
  return (
    <Container maxWidth="md" sx={{ py: 6 }}>
      <Typography variant="h3" component="h1" gutterBottom>
        Blog
      </Typography>
      {posts.isPending ? (
        <PageSpinner />
      ) : posts.isError ? (
        <Alert severity="error">{BLOG_MESSAGES.listError}</Alert>
      ) : posts.data.length === 0 ? (
        <Typography color="text.secondary">No posts yet.</Typography>
      ) : (
        <Stack spacing={3}>
          {posts.data.map((post) => (
            <Card key={post.id} variant="outlined" component="article">
              <EditableImage assetId={coverImageId(post.id)} alt="" height={200} />
              <CardActionArea component={RouterLink} to={post.url}>
                <CardContent>
                  <Typography variant="h5" component="h2">
                    {post.title}
                  </Typography>
                  <Typography variant="body2" color="text.secondary">
                    {post.author} · <time dateTime={post.created_at}>{relativeTime(post.created_at)}</time>
                  </Typography>
                </CardContent>
              </CardActionArea>
            </Card>
          ))}
        </Stack>
      )}
    </Container>
  );
}

export default BlogListPage;
