import { blogPostListSchema, blogPostSchema, type BlogUpdate } from '@tandem/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { apiFetch } from '../api/client';

export function useBlogPosts(admin = false) {
  return useQuery({
    queryKey: ['blog', admin ? 'admin' : 'public'],
    queryFn: () => apiFetch(admin ? '/api/blog/admin' : '/api/blog/', { schema: blogPostListSchema }),
  });
}

export function useBlogPost(id: string) {
  return useQuery({
    queryKey: ['blog', 'post', id],
    queryFn: () => apiFetch(`/api/blog/${encodeURIComponent(id)}`, { schema: blogPostSchema }),
    retry: false,
  });
}

export function useSaveBlogPost() {
  const queryClient = useQueryClient();
  return useCallback(
    async (post: BlogUpdate) => {
      const saved = await apiFetch('/api/blog/update', {
        method: 'POST',
        body: post,
        schema: blogPostSchema,
      });
      await queryClient.invalidateQueries({ queryKey: ['blog'] });
      return saved;
    },
    [queryClient],
  );
}
