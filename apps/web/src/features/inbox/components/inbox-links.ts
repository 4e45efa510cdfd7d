// Where the inbox's items lead (the bell's drawer and the inbox page).

/** Where an alarm message leads: the alarm query screen with the alarm's details open. */
export function alarmHref(alarmId: string): string {
  return `/view/alarm/query?alarm=${encodeURIComponent(alarmId)}`;
}

/** The full inbox page. */
export const INBOX_PAGE_HREF = '/view/inbox';

/** Where a task's alarm message also leads: the task's details. */
export function taskHref(taskId: string): string {
  return `/view/transport/tasks?id=${encodeURIComponent(taskId)}`;
}
