import { Notifications } from '@mantine/notifications';
import '@mantine/notifications/styles.css';
import '../styles/pages.css';

export default function AppNotifications() {
  return <Notifications position="bottom-right" />;
}
