// Transport task changes for the browsers' live channel (topic `tasks`, message 'task-changes'):
// the task service with every write that creates a task or changes one (create, edit, copy,
// import, a move by hand or by the recogniser) publishing what changed once it succeeded. The
// service stays unaware of the channel; the plugin hands this wrapped service to the routes and
// the recogniser alike, so no write path is missed. A hand-over changes no task (only its story).
import type { TaskChange } from '@iotc/shared/live';
import type { Db } from '../../db/client.ts';
import { taskById } from './repo.ts';
import type { TransportTaskService } from './service.ts';

interface Logger {
  warn(obj: object, msg: string): void;
}

export function publishingTaskChanges(tasks: TransportTaskService, db: Db, publish: (changes: TaskChange[]) => void, log?: Logger): TransportTaskService {
  const changed = <T extends { id: string; orgId: string; status: TaskChange['status'] }>(task: T): T => {
    publish([{ id: task.id, orgId: task.orgId, status: task.status }]);
    return task;
  };
  return {
    ...tasks,
    create: async (...args) => changed(await tasks.create(...args)),
    update: async (...args) => changed(await tasks.update(...args)),
    transition: async (...args) => changed(await tasks.transition(...args)),
    copy: async (...args) => changed(await tasks.copy(...args)),
    async import(caller, ...rest) {
      const result = await tasks.import(caller, ...rest);
      // The import writes into the caller's own organisation; its rows are many: one change for all.
      if (result.created > 0 || result.updated > 0) publish([{ id: null, orgId: caller.orgId, status: null }]);
      return result;
    },
    async recognised(taskId, to, at) {
      const moved = await tasks.recognised(taskId, to, at);
      if (moved) {
        // The move is committed; a failed read only costs the browsers this one update.
        await taskById(db, taskId).then(
          (row) => row && changed(row),
          (err: unknown) => log?.warn({ err }, 'task change not published'),
        );
      }
      return moved;
    },
  };
}
