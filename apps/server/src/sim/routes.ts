// Where simulated devices are: truck routes along China's expressways, drayage routes from
// container ports, and the fixed cold-chain parks and port yards. Waypoints are WGS-84
// [lat, lon], about 10-40 km apart along the corridor, so a vehicle moving in a straight line
// between two of them stays on the expressway's side of rivers, bays and mountains on the map.

export type LatLon = readonly [lat: number, lon: number];
export type Polyline = readonly LatLon[];

export interface Route {
  id: string;
  name: string;
  /** `truck`: city to city, for vehicles; `drayage`: from a port yard (the first point), for containers. */
  use: 'truck' | 'drayage';
  path: Polyline;
}

export interface Site {
  id: string;
  name: string;
  /** `coldroom`: a cold-chain park with cold rooms; `yard`: a container port yard. */
  kind: 'coldroom' | 'yard';
  lat: number;
  lon: number;
}

const SHANGHAI: LatLon = [31.2304, 121.4737];
const NANJING: LatLon = [32.0603, 118.7969];
const GUANGZHOU: LatLon = [23.1291, 113.2644];
const HANGZHOU: LatLon = [30.2741, 120.1551];
const NINGBO: LatLon = [29.8683, 121.544];
const JINAN: LatLon = [36.6512, 117.1201];

// G92 Hangzhou Bay ring, south shore: Hangzhou - Xiaoshan - Keqiao - Shaoxing - Shangyu - Yuyao - Ningbo.
const HANGZHOU_NINGBO: Polyline = [
  HANGZHOU,
  [30.18, 120.27], // Xiaoshan
  [30.08, 120.49], // Keqiao
  [30.0, 120.58], // Shaoxing
  [30.02, 120.87], // Shangyu
  [30.04, 121.15], // Yuyao
  [29.95, 121.37], // Cicheng
  NINGBO,
];

export const ROUTES: readonly Route[] = [
  {
    id: 'shanghai-nanjing',
    name: 'Shanghai - Suzhou - Wuxi - Changzhou - Nanjing (G42)',
    use: 'truck',
    path: [
      SHANGHAI,
      [31.253, 121.4], // Zhenru
      [31.295, 121.31], // Jiangqiao
      [31.3, 121.165], // Anting
      [31.335, 121.08], // Huaqiao
      [31.37, 120.96], // Kunshan
      [31.39, 120.78], // Weiting
      [31.39, 120.62], // Suzhou
      [31.46, 120.45], // Wangting
      [31.55, 120.32], // Wuxi
      [31.66, 120.16], // Yanqiao
      [31.795, 119.98], // Changzhou
      [31.87, 119.8], // Benniu
      [31.99, 119.6], // Danyang
      [32.13, 119.43], // Zhenjiang
      [32.125, 119.17], // Baohua
      [32.07, 118.97], // Tangshan
      NANJING,
    ],
  },
  {
    id: 'beijing-nanjing',
    name: 'Beijing - Tianjin - Jinan - Xuzhou - Nanjing (G2/G3)',
    use: 'truck',
    path: [
      [39.9042, 116.4074], // Beijing
      [39.86, 116.45], // Fenzhongsi
      [39.76, 116.56], // Majuqiao
      [39.64, 116.65],
      [39.53, 116.73], // Langfang
      [39.39, 117.03], // Wuqing
      [39.2, 117.17],
      [39.0842, 117.2009], // Tianjin
      [39.02, 117.05], // Xiqing
      [38.94, 116.93], // Jinghai
      [38.76, 116.9], // Tangguantun
      [38.58, 116.84], // Qingxian
      [38.43, 116.84],
      [38.304, 116.839], // Cangzhou
      [38.19, 116.7],
      [38.07, 116.58], // Botou
      [37.89, 116.54], // Dongguang
      [37.66, 116.45], // Wuqiao
      [37.435, 116.359], // Dezhou
      [37.17, 116.44], // Pingyuan
      [36.93, 116.64], // Yucheng
      [36.79, 116.76], // Qihe
      [36.73, 116.93], // Yellow River crossing
      JINAN,
      [36.53, 117.0], // Changqing
      [36.38, 117.0], // Wande
      [36.2, 117.087], // Tai'an
      [35.96, 117.06], // Dawenkou
      [35.76, 116.98],
      [35.581, 116.986], // Qufu
      [35.405, 116.973], // Zoucheng
      [35.25, 117.05],
      [35.084, 117.165], // Tengzhou
      [34.8, 117.265], // Xuecheng
      [34.54, 117.22], // Liuquan
      [34.38, 117.24],
      [34.205, 117.285], // Xuzhou
      [34.05, 117.17], // Sanbao
      [33.9, 117.06], // Fuli
      [33.64, 116.98], // Suzhou (Anhui)
      [33.48, 117.18],
      [33.32, 117.32], // Guzhen
      [33.12, 117.36],
      [32.92, 117.39], // Bengbu
      [32.87, 117.56], // Fengyang
      [32.7, 117.76],
      [32.5, 117.95],
      [32.4, 118.12],
      [32.3, 118.31], // Chuzhou
      [32.16, 118.55], // Pukou
      NANJING,
    ],
  },
  {
    id: 'guangzhou-shenzhen',
    name: 'Guangzhou - Dongguan - Shenzhen (G4)',
    use: 'truck',
    path: [
      GUANGZHOU,
      [23.14, 113.38], // Tianhe
      [23.1, 113.47], // Huangpu
      [23.12, 113.6], // Xintang
      [23.03, 113.66],
      [22.94, 113.68], // Houjie
      [22.81, 113.81], // Chang'an
      [22.73, 113.84], // Shajing
      [22.6, 113.88], // Bao'an
      [22.53, 113.96], // Nanshan
      [22.5431, 114.0579], // Shenzhen
    ],
  },
  {
    id: 'shanghai-ningbo',
    name: 'Shanghai - Jiaxing - Hangzhou - Ningbo (G60/G92)',
    use: 'truck',
    path: [
      SHANGHAI,
      [31.11, 121.38], // Xinzhuang
      [31.03, 121.23], // Songjiang
      [30.89, 121.02], // Fengjing
      [30.84, 120.92], // Jiashan
      [30.75, 120.76], // Jiaxing
      [30.6, 120.55], // Tongxiang
      [30.47, 120.37], // Xushi
      [30.36, 120.2],
      ...HANGZHOU_NINGBO,
    ],
  },
  {
    id: 'chengdu-chongqing',
    name: 'Chengdu - Neijiang - Chongqing (G85)',
    use: 'truck',
    path: [
      [30.5728, 104.0668], // Chengdu
      [30.56, 104.27], // Longquanyi
      [30.39, 104.55], // Jianyang
      [30.129, 104.627], // Ziyang
      [29.95, 104.74],
      [29.775, 104.852], // Zizhong
      [29.58, 105.058], // Neijiang
      [29.339, 105.288], // Longchang
      [29.405, 105.594], // Rongchang
      [29.46, 105.8], // Youting
      [29.356, 105.927], // Yongchuan
      [29.52, 106.08], // Laifeng
      [29.56, 106.3], // Jinyun Mountain tunnel
      [29.56, 106.45], // Shapingba
      [29.563, 106.5516], // Chongqing
    ],
  },
  {
    id: 'wuhan-guangzhou',
    name: 'Wuhan - Changsha - Guangzhou (G4)',
    use: 'truck',
    path: [
      [30.5928, 114.3055], // Wuhan
      [30.42, 114.27],
      [30.2, 114.25],
      [30.0, 114.27],
      [29.84, 114.32], // Xianning
      [29.77, 114.15],
      [29.7, 113.98], // Chibi
      [29.55, 113.74],
      [29.48, 113.45], // Linxiang
      [29.36, 113.2], // Yueyang
      [29.1, 113.16],
      [28.805, 113.08], // Miluo
      [28.5, 113.03],
      [28.2282, 112.9388], // Changsha
      [28.03, 113.06],
      [27.827, 113.134], // Zhuzhou
      [27.55, 113.0],
      [27.39, 112.93],
      [27.23, 112.87], // Hengshan
      [27.07, 112.76],
      [26.9, 112.65], // Hengyang
      [26.66, 112.75],
      [26.42, 112.86], // Leiyang
      [26.2, 112.95],
      [25.98, 112.98],
      [25.77, 113.015], // Chenzhou
      [25.58, 112.99],
      [25.4, 112.948], // Yizhang
      [25.27, 113.15],
      [25.128, 113.352], // Lechang
      [24.97, 113.47],
      [24.81, 113.597], // Shaoguan
      [24.68, 113.6], // Qujiang
      [24.43, 113.5],
      [24.186, 113.415], // Yingde
      [24.03, 113.47],
      [23.88, 113.532], // Fogang
      [23.62, 113.4],
      [23.4, 113.26], // Huadu
      [23.22, 113.27], // Baiyun
      GUANGZHOU,
    ],
  },
  {
    id: 'xian-zhengzhou',
    name: "Xi'an - Luoyang - Zhengzhou (G30)",
    use: 'truck',
    path: [
      [34.3416, 108.9398], // Xi'an
      [34.33, 109.07], // Baqiao
      [34.367, 109.214], // Lintong
      [34.499, 109.51], // Weinan
      [34.512, 109.761], // Huazhou
      [34.566, 110.092], // Huayin
      [34.544, 110.246], // Tongguan
      [34.53, 110.55], // Wenxiang
      [34.521, 110.894], // Lingbao
      [34.65, 111.04],
      [34.773, 111.2], // Sanmenxia
      [34.74, 111.48], // Guanyintang
      [34.767, 111.762], // Mianchi
      [34.75, 111.95],
      [34.728, 112.132], // Xin'an
      [34.6197, 112.454], // Luoyang
      [34.727, 112.79], // Yanshi
      [34.748, 113.022], // Gongyi
      [34.788, 113.383], // Xingyang
      [34.7466, 113.6254], // Zhengzhou
    ],
  },
  {
    id: 'shenyang-dalian',
    name: 'Shenyang - Anshan - Dalian (G15)',
    use: 'truck',
    path: [
      [41.8057, 123.4315], // Shenyang
      [41.66, 123.34], // Sujiatun
      [41.427, 123.339], // Dengta
      [41.27, 123.17], // Liaoyang
      [41.108, 122.994], // Anshan
      [41.0, 122.84],
      [40.882, 122.685], // Haicheng
      [40.644, 122.509], // Dashiqiao
      [40.4, 122.355], // Gaizhou
      [40.18, 122.17], // Xiongyue
      [39.98, 122.09],
      [39.8, 122.04],
      [39.627, 122.008], // Wafangdian
      [39.51, 121.99],
      [39.396, 121.97], // Pulandian
      [39.25, 121.86],
      [39.05, 121.72], // Jinzhou
      [38.914, 121.6147], // Dalian
    ],
  },
  {
    id: 'yangshan-waigaoqiao',
    name: 'Yangshan port - Donghai Bridge - Waigaoqiao port',
    use: 'drayage',
    path: [
      [30.627, 122.065], // Yangshan
      [30.74, 121.99], // Donghai Bridge
      [30.86, 121.9], // Luchaogang
      [31.04, 121.76], // Huinan
      [31.2, 121.6], // Zhangjiang
      [31.3, 121.59], // Gaoqiao
      [31.357, 121.594], // Waigaoqiao
    ],
  },
  {
    id: 'yantian-guangzhou',
    name: 'Yantian port - Dongguan - Guangzhou',
    use: 'drayage',
    path: [
      [22.576, 114.27], // Yantian
      [22.61, 114.12], // Buji
      [22.72, 114.04], // Guanlan
      [22.8, 114.08], // Tangxia
      [22.97, 113.98], // Changping
      [23.02, 113.75], // Dongguan
      [23.05, 113.6],
      [23.1, 113.47], // Huangpu
      GUANGZHOU,
    ],
  },
  {
    id: 'beilun-hangzhou',
    name: 'Ningbo Beilun port - Ningbo - Shaoxing - Hangzhou',
    use: 'drayage',
    path: [
      [29.94, 121.88], // Beilun
      [29.91, 121.73], // Xiaogang
      ...[...HANGZHOU_NINGBO].reverse(),
    ],
  },
  {
    id: 'qingdao-jinan',
    name: 'Qingdao Qianwan port - Weifang - Zibo - Jinan (G20)',
    use: 'drayage',
    path: [
      [36.01, 120.2], // Qianwan
      [36.15, 120.1],
      [36.28, 120.03], // Jiaozhou
      [36.38, 119.76], // Gaomi
      [36.53, 119.48],
      [36.707, 119.162], // Weifang
      [36.71, 118.82],
      [36.69, 118.48], // Qingzhou
      [36.76, 118.27],
      [36.81, 118.05], // Zibo
      [36.87, 117.74], // Zouping
      [36.71, 117.53], // Zhangqiu
      [36.68, 117.31],
      JINAN,
    ],
  },
];

export const SITES: readonly Site[] = [
  { id: 'shanghai-pudong-cold', name: 'Shanghai Pudong cold-chain park', kind: 'coldroom', lat: 31.195, lon: 121.69 },
  { id: 'guangzhou-huangpu-cold', name: 'Guangzhou Huangpu cold-chain park', kind: 'coldroom', lat: 23.105, lon: 113.48 },
  { id: 'beijing-daxing-cold', name: 'Beijing Daxing cold-chain park', kind: 'coldroom', lat: 39.73, lon: 116.36 },
  { id: 'chengdu-qingbaijiang-cold', name: 'Chengdu Qingbaijiang cold-chain park', kind: 'coldroom', lat: 30.8, lon: 104.24 },
  { id: 'wuhan-dongxihu-cold', name: 'Wuhan Dongxihu cold-chain park', kind: 'coldroom', lat: 30.63, lon: 114.13 },
  { id: 'shanghai-yangshan', name: 'Shanghai Yangshan port', kind: 'yard', lat: 30.627, lon: 122.065 },
  { id: 'shanghai-waigaoqiao', name: 'Shanghai Waigaoqiao port', kind: 'yard', lat: 31.357, lon: 121.594 },
  { id: 'shenzhen-yantian', name: 'Shenzhen Yantian port', kind: 'yard', lat: 22.576, lon: 114.27 },
  { id: 'ningbo-beilun', name: 'Ningbo Beilun port', kind: 'yard', lat: 29.94, lon: 121.88 },
  { id: 'qingdao-qianwan', name: 'Qingdao Qianwan port', kind: 'yard', lat: 36.01, lon: 120.2 },
];

const EARTH_RADIUS_KM = 6371.0088;
const rad = (deg: number) => (deg * Math.PI) / 180;

/** Great-circle distance in km (haversine). */
export function distanceKm(a: LatLon, b: LatLon): number {
  const dLat = rad(b[0] - a[0]);
  const dLon = rad(b[1] - a[1]);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a[0])) * Math.cos(rad(b[0])) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** Initial bearing from a to b, degrees clockwise from north in [0, 360). */
export function bearing(a: LatLon, b: LatLon): number {
  const y = Math.sin(rad(b[1] - a[1])) * Math.cos(rad(b[0]));
  const x = Math.cos(rad(a[0])) * Math.sin(rad(b[0])) - Math.sin(rad(a[0])) * Math.cos(rad(b[0])) * Math.cos(rad(b[1] - a[1]));
  return ((Math.atan2(y, x) * 180) / Math.PI + 360) % 360;
}

// Cumulative km at each waypoint, computed once per polyline: pointAlong runs for every report.
const cumulative = new WeakMap<Polyline, Float64Array>();

function cumulativeKm(route: Polyline): Float64Array {
  let km = cumulative.get(route);
  if (!km) {
    km = new Float64Array(route.length);
    for (let i = 1; i < route.length; i++) km[i] = km[i - 1]! + distanceKm(route[i - 1]!, route[i]!);
    cumulative.set(route, km);
  }
  return km;
}

/** Length of a polyline in km. */
export function routeLength(route: Polyline): number {
  const km = cumulativeKm(route);
  return km.length === 0 ? 0 : km[km.length - 1]!;
}

/**
 * The point `km` along a polyline (clamped to its ends) and the course there, degrees from
 * north in [0, 360). Within a segment the position is interpolated linearly in lat/lon, which
 * at 10-40 km segments is metres from the great circle.
 */
export function pointAlong(route: Polyline, km: number): { lat: number; lon: number; course: number } {
  if (route.length === 0) throw new RangeError('an empty route has no points');
  const cum = cumulativeKm(route);
  const total = cum[cum.length - 1]!;
  const at = Math.min(Math.max(km, 0), total);
  // The segment [i, i + 1] holding `at`: binary search over the cumulative distances.
  let lo = 0;
  let hi = route.length - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (cum[mid]! <= at) lo = mid;
    else hi = mid;
  }
  const a = route[lo]!;
  const b = route[Math.min(lo + 1, route.length - 1)]!;
  const span = cum[Math.min(lo + 1, route.length - 1)]! - cum[lo]!;
  const f = span > 0 ? (at - cum[lo]!) / span : 0;
  return { lat: a[0] + (b[0] - a[0]) * f, lon: a[1] + (b[1] - a[1]) * f, course: span > 0 ? bearing(a, b) : 0 };
}
