import Avatar from '@mui/material/Avatar';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Container from '@mui/material/Container';
import Grid from '@mui/material/Grid';
import Typography from '@mui/material/Typography';
import { avatarColor, avatarTextColor } from '@tandem/shared';
import { usePageTitle } from '../lib/page-title';
import team from './team.json';

interface Member {
  name: string;
  role: string;
  bio: string;
}

export function TeamPage() {
  usePageTitle('Team ·');
  return (
    <Container maxWidth="lg" sx={{ py: 6 }}>
      <Typography variant="h3" component="h1" gutterBottom>
        Team
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 4 }}>
        The people building Tandem.
      </Typography>
      <Grid container spacing={3}>
        {(team as Member[]).map((member) => (
          <Grid key={member.name} size={{ xs: 12, sm: 6, md: 3 }}>
            <Card variant="outlined" sx={{ height: '100%' }} component="article" aria-label={member.name}>
              <CardContent>
                <Avatar
                  sx={{
                    bgcolor: avatarColor(member.name),
                    color: avatarTextColor(avatarColor(member.name)),
                    width: 56,
                    height: 56,
                    mb: 2,
                  }}
                >
                  {member.name
                    .split(' ')
                    .map((part) => part[0])
                    .join('')}
                </Avatar>
                <Typography variant="h6" component="h2">
                  {member.name}
                </Typography>
                <Typography color="primary" variant="body2" sx={{ mb: 1 }}>
                  {member.role}
                </Typography>
                <Typography variant="body2" color="text.secondary">
                  {member.bio}
                </Typography>
              </CardContent>
            </Card>
          </Grid>
        ))}
      </Grid>
    </Container>
  );
}

export default TeamPage;
