import { Notifications } from '@mantine/notifications';
import '@mantine/notifications/styles.css';

export { notifications } from '@mantine/notifications';

/** The toasts' container: loaded with the first toast (components/toast.tsx), not with the first page. */
export default function AppNotifications() {
  return <Notifications position="bottom-right" />;
}
