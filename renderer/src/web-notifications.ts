/** The browser's Web Notifications API as the desktop store's port (the browser host shows notifications here; docs/architecture.md, "The desktop"). */
import type { WebNotifications } from './stores/desktop-store';

/** The Web Notifications API; clicking a notification brings Hubdesk's page to the front. */
export const browserNotifications: WebNotifications = {
  permission: () => (typeof Notification === 'undefined' ? 'unsupported' : Notification.permission),
  requestPermission: async () => (typeof Notification === 'undefined' ? 'unsupported' : Notification.requestPermission()),
  show(notification) {
    if (typeof Notification === 'undefined') return;
    try {
      const shown = new Notification(notification.title, { body: notification.body, tag: notification.tag });
      shown.onclick = () => {
        window.focus();
        shown.close();
      };
    } catch (error) {
      // Some browsers allow notifications only from a service worker; the app then goes on without them.
      console.warn('hubdesk: the browser refused to show a notification', error);
    }
  },
};
