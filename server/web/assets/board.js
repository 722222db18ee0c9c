// The board of either game as SVG, drawn from a Snapshot's projected state alone (no rules
// engine in the page). Every unit carries data- attributes (its id or hex, side, square,
// facing, formation, morale or figures, disorder) so that tests and assistive tools read the
// board from the DOM. Colours are the SDL client's (client/sdl/theme.hpp): blue against red
// for the sides, which the three colour blindnesses keep apart; every mark also has a shape
// or a letter, never colour alone.
'use strict';

(function () {
  const el = castra.el;
  const side = castra.sideName;

  const OPTIO_TERRAIN = {
    TERRAIN_OPEN: ['#B5C27F', ''], TERRAIN_HILL: ['#CFAE6E', 'hill'], TERRAIN_WOODS: ['#4C7A3A', 'woods'],
    TERRAIN_MARSH: ['#7E9C7B', 'marsh'], TERRAIN_RIVER: ['#3F7FBF', 'river'], TERRAIN_FORD: ['#7FB3D9', 'ford'],
    TERRAIN_CAMP: ['#D9C8A0', 'camp'],
  };
  const STAND_TERRAIN = {
    TERRAIN_OPEN: ['#B9C482', ''], TERRAIN_WOODS: ['#4C7A3A', 'woods'], TERRAIN_SWAMP: ['#7E9C7B', 'swamp'],
    TERRAIN_TOWN: ['#B7A58A', 'town'], TERRAIN_HILL: ['#CFAE6E', 'hill'], TERRAIN_STEEP: ['#9A7448', 'steep'],
    TERRAIN_WATER: ['#3F7FBF', 'water'],
  };
  const UNIT_LETTERS = {
    UNIT_TYPE_HEAVY_INFANTRY: ['HI', 'heavy infantry'], UNIT_TYPE_PIKES: ['Pk', 'pikes'],
    UNIT_TYPE_WARBAND: ['Wb', 'warband'], UNIT_TYPE_LIGHT_INFANTRY: ['LI', 'light infantry'],
    UNIT_TYPE_SKIRMISHERS: ['Sk', 'skirmishers'], UNIT_TYPE_ARCHERS: ['Ar', 'archers'],
    UNIT_TYPE_ELEPHANTS: ['El', 'elephants'], UNIT_TYPE_LIGHT_CAVALRY: ['LC', 'light cavalry'],
    UNIT_TYPE_CAVALRY: ['Cv', 'cavalry'], UNIT_TYPE_HEAVY_CAVALRY: ['HC', 'heavy cavalry'],
    UNIT_TYPE_CHARIOTS: ['Ch', 'chariots'],
  };
  const OPTIO_FACING = ['north', 'east', 'south', 'west'];
  const STAND_FACINGS = ['FACING_E', 'FACING_NE', 'FACING_NW', 'FACING_W', 'FACING_SW', 'FACING_SE'];
  const S = 40; // an Optio square, in SVG units

  function svgFor(w, h, label) {
    return el('svg', { viewBox: '0 0 ' + w + ' ' + h, role: 'img', 'aria-label': label, class: 'board' });
  }

  function terrainMark(g, x, y, word) {
    if (word) g.append(el('text', { x: x + 3, y: y + 9, class: 'terrain-word' }, word));
  }

  function optio(state) {
    const cols = state.cols || 16, rows = state.rows || 8;
    const svg = svgFor(cols * S, rows * S, 'Optio board, ' + cols + ' by ' + rows + ' squares');
    const ground = el('g', { class: 'ground' });
    const terrain = state.terrain || [];
    for (let r = 1; r <= rows; r++)
      for (let c = 1; c <= cols; c++) {
        const t = OPTIO_TERRAIN[terrain[(r - 1) * cols + (c - 1)] || 'TERRAIN_OPEN'] || OPTIO_TERRAIN.TERRAIN_OPEN;
        const x = (c - 1) * S, y = (r - 1) * S;
        ground.append(el('rect', { x, y, width: S, height: S, fill: t[0], class: 'square', 'data-col': c, 'data-row': r }));
        terrainMark(ground, x, y, t[1]);
      }
    svg.append(ground);
    const leadersOn = new Map();
    for (const l of state.leaders || []) {
      if ((l.status || 'ACTIVE') !== 'ACTIVE' || !l.unit) continue;
      if (!leadersOn.has(l.unit)) leadersOn.set(l.unit, []);
      leadersOn.get(l.unit).push(l);
    }
    const units = el('g', { class: 'units' });
    for (const u of state.units || []) {
      if (!u.placed || u.routed || !u.at) continue;
      units.append(optioUnit(u, leadersOn.get(u.id) || []));
    }
    svg.append(units);
    return svg;
  }

  function optioUnit(u, leaders) {
    const facing = u.facing || 0, column = u.formation === 'FORMATION_COLUMN';
    const cx = (u.at.col - 0.5) * S, cy = (u.at.row - 0.5) * S;
    const [letters, typeName] = UNIT_LETTERS[u.type] || ['?', 'unit'];
    const s = side(u.side);
    // A line's long side faces the enemy; a column's short side does.
    const across = column ? 18 : 34, deep = column ? 34 : 18;
    const g = el('g', {
      class: 'unit side-' + s + (u.disordered ? ' disordered' : ''),
      'data-unit': u.id, 'data-side': s, 'data-col': u.at.col, 'data-row': u.at.row,
      'data-facing': facing, 'data-formation': column ? 'column' : 'line', 'data-morale': u.morale || 0,
      'data-disordered': u.disordered ? 'true' : 'false', transform: 'translate(' + cx + ' ' + cy + ')',
    });
    const body = el('g', { transform: 'rotate(' + facing * 90 + ')' });
    // Square corners for side A, round ones for B: the shape tells them apart too.
    body.append(el('rect', { x: -across / 2, y: -deep / 2, width: across, height: deep, rx: s === 'A' ? 1 : 7, class: 'counter' }));
    body.append(el('polygon', { points: '-5,' + (-deep / 2) + ' 5,' + (-deep / 2) + ' 0,' + (-deep / 2 - 5), class: 'front' }));
    g.append(body);
    g.append(el('text', { y: 4, class: 'unit-letters' }, letters));
    g.append(el('text', { x: 17, y: 17, class: 'morale' }, String(u.morale || 0)));
    if (u.disordered) g.append(el('text', { x: -17, y: 17, class: 'disorder-mark' }, 'D'));
    leaders.forEach((l, i) => {
      const lg = el('g', { class: 'leader', 'data-leader': l.id, transform: 'translate(' + (-13 + i * 9) + ' -13)' });
      lg.append(l.general
        ? el('polygon', { points: '0,-5 1.5,-1.5 5,-1.5 2.3,0.8 3.2,4.5 0,2.3 -3.2,4.5 -2.3,0.8 -5,-1.5 -1.5,-1.5', class: 'leader-mark' })
        : el('circle', { r: 3.5, class: 'leader-mark' }));
      if (l.wounded) lg.append(el('text', { x: 5, y: 3, class: 'wound' }, 'w'));
      g.append(lg);
    });
    const words = 'Side ' + s + ' ' + typeName + ' (unit ' + u.id + ') at ' + u.at.col + ',' + u.at.row +
      ', facing ' + OPTIO_FACING[facing] + ', in ' + (column ? 'column' : 'line') + ', morale ' + (u.morale || 0) +
      (u.disordered ? ', disordered' : '') +
      leaders.map((l) => ', with ' + (l.general ? 'the general' : 'a leader') + (l.wounded ? ' (wounded)' : '')).join('');
    g.append(el('title', {}, words));
    return g;
  }

  function stand(state) {
    const w = state.width || 1, h = state.height || 1;
    const r = 22, hw = Math.sqrt(3) * r;
    const svg = svgFor(hw * (w + 0.5), r * (1.5 * h + 0.5), 'STAND! board, ' + w + ' by ' + h + ' hexes');
    const ground = el('g', { class: 'ground' }), troops = el('g', { class: 'units' });
    for (const t of state.tiles || []) {
      const c = (t.hex && t.hex.col) || 0, row = (t.hex && t.hex.row) || 0;
      const cx = hw * (c + 0.5 + 0.5 * (row & 1)), cy = r + row * 1.5 * r;
      const pts = [];
      for (let i = 0; i < 6; i++) {
        const a = Math.PI / 180 * (60 * i - 30);
        pts.push((cx + r * Math.cos(a)).toFixed(1) + ',' + (cy + r * Math.sin(a)).toFixed(1));
      }
      const ter = STAND_TERRAIN[t.terrain || 'TERRAIN_OPEN'] || STAND_TERRAIN.TERRAIN_OPEN;
      ground.append(el('polygon', { points: pts.join(' '), fill: ter[0], class: 'hex', 'data-col': c, 'data-row': row }));
      if (ter[1]) ground.append(el('text', { x: cx, y: cy - 11, class: 'terrain-word middle' }, ter[1]));
      const crossing = t.crossing || 'CROSSING_NONE';
      if (crossing !== 'CROSSING_NONE') {
        ground.append(el('line', { x1: cx - 10, y1: cy + 12, x2: cx + 10, y2: cy + 12, class: crossing === 'CROSSING_BRIDGE' ? 'bridge' : 'ford' }));
      }
      if (t.troops) troops.append(standTroops(t.troops, c, row, cx, cy));
    }
    svg.append(ground, troops);
    return svg;
  }

  function standTroops(t, col, row, cx, cy) {
    const s = side(t.side), f = t.figures || {};
    const counts = [['i', f.infantry], ['a', f.archers], ['c', f.cavalry], ['ch', f.chariots]].filter((x) => x[1]);
    const total = counts.reduce((n, x) => n + x[1], 0);
    const facing = Math.max(0, STAND_FACINGS.indexOf(t.facing || 'FACING_E'));
    const back = (t.posture || 'POSTURE_FALLING_BACK') === 'POSTURE_FALLING_BACK';
    const a = -Math.PI / 3 * facing; // SVG's y axis points down
    const g = el('g', {
      class: 'unit side-' + s, 'data-side': s, 'data-col': col, 'data-row': row,
      'data-facing': STAND_FACINGS[facing], 'data-figures': total, 'data-posture': back ? 'falling-back' : 'standing',
      transform: 'translate(' + cx.toFixed(1) + ' ' + cy.toFixed(1) + ')',
    });
    // A round counter for side A, a square one for B: the shape tells them apart too.
    g.append(s === 'A' ? el('circle', { r: 14, class: 'counter' })
      : el('rect', { x: -13, y: -13, width: 26, height: 26, rx: 3, class: 'counter' }));
    g.append(el('polygon', {
      points: [[18, 0], [12, -5], [12, 5]].map(([x, y]) =>
        (x * Math.cos(a) - y * Math.sin(a)).toFixed(1) + ',' + (x * Math.sin(a) + y * Math.cos(a)).toFixed(1)).join(' '),
      class: 'front',
    }));
    g.append(el('text', { y: 4, class: 'unit-letters' }, String(total)));
    if (back) g.append(el('text', { x: 11, y: 17, class: 'disorder-mark' }, 'FB'));
    g.append(el('title', {}, 'Side ' + s + ' at ' + col + ',' + row + ': ' + counts.map((x) => x[1] + x[0]).join(' ') +
      ', facing ' + STAND_FACINGS[facing].slice(7) + (back ? ', falling back' : ', standing')));
    return g;
  }

  // The SVG for a GameState ({optio: ...} or {stand: ...}), or null before there is one.
  castra.drawBoard = function (state) {
    if (!state) return null;
    if (state.optio) return optio(state.optio);
    if (state.stand) return stand(state.stand);
    return null;
  };
})();
