-- A task's planned path runs from the origin's centre through its route's points to the
-- destination's centre (plannedPath in packages/shared/src/transport-progress.ts). Tasks stored
-- before kept the length of the route's points alone as their planned distance, and their
-- off-route rule watched those points alone: both are brought in line here (progress, the
-- distance left and the arrival estimate are worked out when read). Lengths as great circles on
-- the same Earth radius as distanceM (6,371,008.8 m).
WITH routed AS (
  SELECT id, origin_lat, origin_lon, destination_lat, destination_lon, settings->'route' AS route
  FROM transport_tasks
  WHERE (CASE WHEN jsonb_typeof(settings->'route') = 'array' THEN jsonb_array_length(settings->'route') ELSE 0 END) > 0
), pts AS (
  SELECT id, 0::bigint AS ord, origin_lat AS lat, origin_lon AS lon FROM routed
  UNION ALL
  SELECT r.id, e.ord, (e.p->>0)::float8, (e.p->>1)::float8 FROM routed r, jsonb_array_elements(r.route) WITH ORDINALITY AS e(p, ord)
  UNION ALL
  SELECT id, 9223372036854775807::bigint, destination_lat, destination_lon FROM routed
), legs AS (
  SELECT id, lat, lon, lag(lat) OVER w AS plat, lag(lon) OVER w AS plon FROM pts WINDOW w AS (PARTITION BY id ORDER BY ord)
), lengths AS (
  SELECT id, coalesce(sum(2 * 6371008.8 * asin(least(1, sqrt(power(sin(radians(lat - plat) / 2), 2) + cos(radians(plat)) * cos(radians(lat)) * power(sin(radians(lon - plon) / 2), 2))))), 0) AS m
  FROM legs WHERE plat IS NOT NULL GROUP BY id
)
UPDATE transport_tasks t SET planned_distance_m = lengths.m FROM lengths WHERE lengths.id = t.id;
--> statement-breakpoint
UPDATE alarm_policies p SET rules = (
  SELECT jsonb_agg(
    CASE WHEN e.r->>'type' = 'yaw'
      THEN jsonb_set(e.r, '{route}', jsonb_build_array(jsonb_build_array(t.origin_lat, t.origin_lon)) || (t.settings->'route') || jsonb_build_array(jsonb_build_array(t.destination_lat, t.destination_lon)))
      ELSE e.r END
    ORDER BY e.ord)
  FROM jsonb_array_elements(p.rules) WITH ORDINALITY AS e(r, ord)
)
FROM transport_tasks t
WHERE p.task_id = t.id
  AND (CASE WHEN jsonb_typeof(t.settings->'route') = 'array' THEN jsonb_array_length(t.settings->'route') ELSE 0 END) > 0
  AND EXISTS (SELECT 1 FROM jsonb_array_elements(CASE WHEN jsonb_typeof(p.rules) = 'array' THEN p.rules ELSE '[]'::jsonb END) AS x(r) WHERE x.r->>'type' = 'yaw');
