import { blogPostListSchema, blogPostSchema, type BlogUpdate } from '@tandem/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { apiFetch } from '../api/client';
import { queryKeys } from '../api/query-keys';

export function useBlogPosts(admin = false) {
  return useQuery({
    queryKey: queryKeys.blogPosts(admin),
    queryFn: () => apiFetch(admin ? '/api/blog/admin' : '/api/blog/', { schema: blogPostListSchema }),
  });
}

export function useBlogPost(id: string) {
  return useQuery({
    queryKey: queryKeys.blogPost(id),
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
      await queryClient.invalidateQueries({ queryKey: queryKeys.blog });
      return saved;
    },
    [queryClient],
  );
}
