// Served as it is written (no build step, nothing fetched from elsewhere); kept in a TypeScript string so
// that every build of the mock, the single-file one too, carries it.

import { DEFAULT_ACTIVITY } from '../../../data/activity/options.js';
import { ADMIN_PREFIX } from '../../../serve/http/reserved-paths.js';

/** The watch page's script: the token kept in sessionStorage and sent in a header only, the events read
 * from `GET /__admin/events` with it, the world read and changed through the admin API. */
export const PAGE_SCRIPT = String.raw`(function () {
  'use strict';
  var ADMIN = ${JSON.stringify(ADMIN_PREFIX)};
  /** What the activity takes for a field left empty: the mock's own defaults. */
  var DEFAULT_ACTIVITY = ${JSON.stringify(DEFAULT_ACTIVITY)};
  var TOKEN_KEY = 'company-data-mock:admin-token';
  /** The most requests and changes the page holds: older ones are let go, and the page says how many. */
  var MOST_REQUESTS = 300;
  var MOST_CHANGES = 100;
  var page = {
    token: null, // the token entered: the server's, or a session's
    home: null, // the world it reaches of itself: 'default' or a session's id
    scope: null, // the world shown
    scopeToken: null, // the admin token of the world shown
    generation: 0, // bumped when the scope changes: answers of an older scope are ignored
    stream: null,
    requests: [], // oldest first, sorted by seq
    rows: new Map(),
    dropped: 0,
    skipped: 0,
    changeSeq: 0,
    changes: [],
    changesDropped: 0,
    clock: null,
    worldTimer: null,
    sessionIds: ''
  };
  var byId = function (id) { return document.getElementById(id); };

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (name) {
      if (name === 'text') node.textContent = attrs[name];
      else if (name === 'className') node.className = attrs[name];
      else node.setAttribute(name, attrs[name]);
    });
    (children || []).forEach(function (child) {
      if (child !== null && child !== undefined) node.append(child);
    });
    return node;
  }

  function status(text) { byId('status').textContent = text; }

  /** A request to the admin API with a token in its header; its JSON, or an Error with the API's detail. */
  function api(path, options) {
    options = options || {};
    var headers = { authorization: 'Bearer ' + (options.token || page.scopeToken) };
    var init = { method: options.method || 'GET', headers: headers, cache: 'no-store' };
    if (options.body !== undefined) {
      headers['content-type'] = 'application/json';
      init.body = JSON.stringify(options.body);
    }
    return fetch(ADMIN + path, init).then(function (response) {
      return response.text().then(function (text) {
        var value = text ? JSON.parse(text) : null;
        if (!response.ok) {
          var error = new Error((value && value.error && value.error.detail) || response.status + ' ' + response.statusText);
          error.status = response.status;
          throw error;
        }
        return value;
      });
    });
  }

  // ---- the token ----

  function showTokenForm(message) {
    stopStream();
    page.token = null;
    byId('app').hidden = true;
    byId('request-list').replaceChildren();
    byId('token-form').hidden = false;
    byId('token-error').textContent = message || '';
    byId('token').focus();
    status('');
  }

  function open(token) {
    status('Opening…');
    return api('', { token: token }).then(function (summary) {
      sessionStorage.setItem(TOKEN_KEY, token);
      page.token = token;
      page.home = summary.id;
      byId('token').value = '';
      byId('token-form').hidden = true;
      byId('app').hidden = false;
      return loadSessions().then(function () { return scopeTo(summary.id); });
    }, function (error) {
      sessionStorage.removeItem(TOKEN_KEY);
      showTokenForm(error.status === 401 || error.status === 410 ? error.message : 'The mock did not answer: ' + error.message);
    });
  }

  byId('token-form').addEventListener('submit', function (event) {
    event.preventDefault();
    var token = byId('token').value.trim();
    if (token) open(token);
  });
  byId('forget').addEventListener('click', function () {
    sessionStorage.removeItem(TOKEN_KEY);
    showTokenForm('');
  });

  // ---- sessions ----

  /** The sessions the token reaches: all of them with the server's token, its own with a session's. */
  function loadSessions() {
    var select = byId('session');
    var listed = page.home === 'default'
      ? api('sessions', { token: page.token }).then(function (answer) { return answer.data.map(function (info) { return info.id; }); })
      : Promise.resolve([page.home]);
    return listed.then(function (ids) {
      var key = ids.join(' ');
      if (key === page.sessionIds) return;
      page.sessionIds = key;
      select.replaceChildren.apply(select, ids.map(function (id) {
        return el('option', { value: id, text: id === 'default' ? 'default (the server’s own world)' : id });
      }));
      select.disabled = ids.length < 2;
      if (page.scope !== null && ids.indexOf(page.scope) >= 0) select.value = page.scope;
      else if (page.scope !== null) scopeTo(page.home);
    });
  }

  byId('session').addEventListener('change', function (event) { scopeTo(event.target.value); });

  /** Shows one world: its token (a session's, read with the server's), its requests, its state. */
  function scopeTo(id) {
    var generation = ++page.generation;
    stopStream();
    page.scope = id;
    byId('session').value = id;
    clearRequests('');
    page.changeSeq = 0;
    page.changes = [];
    page.changesDropped = 0;
    var token = id === page.home
      ? Promise.resolve(page.token)
      : api('sessions/' + encodeURIComponent(id), { token: page.token }).then(function (answer) { return answer.data.adminToken; });
    return token.then(function (scopeToken) {
      if (generation !== page.generation) return;
      page.scopeToken = scopeToken;
      openStream(generation);
      refreshWorld();
    }, function (error) {
      if (id !== page.home) leaveSession(error.message);
      else status(error.message);
    });
  }

  /** The session shown ended: the list is read again, and the page shows the world the token itself reaches. */
  function leaveSession(why) {
    status(why);
    page.sessionIds = '';
    var left = page.scope;
    loadSessions().then(function () {
      if (page.scope === left) scopeTo(page.home);
    });
  }

  // ---- the stream of events ----

  function stopStream() {
    if (page.stream) page.stream.abort();
    page.stream = null;
  }

  function openStream(generation) {
    var controller = new AbortController();
    page.stream = controller;
    status('Connecting…');
    fetch(ADMIN + 'events', { headers: { authorization: 'Bearer ' + page.scopeToken }, signal: controller.signal, cache: 'no-store' })
      .then(function (response) {
        if (response.status === 401 || response.status === 410) {
          return response.json().then(function (body) {
            // A session that ended: back to the world the token itself reaches.
            if (page.scope !== page.home) leaveSession(body.error.detail);
            else showTokenForm(body.error.detail);
            throw null;
          });
        }
        if (!response.ok || !response.body) throw new Error(response.status + ' ' + response.statusText);
        status('Live: ' + page.scope);
        return read(response.body.getReader(), generation);
      })
      .then(function () {
        if (generation === page.generation) retry(generation, 'The mock ended the stream');
      }, function (error) {
        if (error === null || controller.signal.aborted || generation !== page.generation) return;
        retry(generation, 'Lost the mock (' + error.message + ')');
      });
  }

  function retry(generation, why) {
    status(why + '; trying again in 2 s…');
    setTimeout(function () { if (generation === page.generation) scopeTo(page.scope); }, 2000);
  }

  function read(reader, generation) {
    var decoder = new TextDecoder();
    var buffered = '';
    function next() {
      return reader.read().then(function (chunk) {
        if (chunk.done) return;
        buffered += decoder.decode(chunk.value, { stream: true });
        var end = buffered.indexOf('\n\n');
        while (end >= 0) {
          var block = buffered.slice(0, end);
          buffered = buffered.slice(end + 2);
          end = buffered.indexOf('\n\n');
          if (generation === page.generation) dispatch(block);
        }
        return next();
      });
    }
    return next();
  }

  function dispatch(block) {
    var name = 'message';
    var data = '';
    block.split('\n').forEach(function (line) {
      if (line.indexOf('event: ') === 0) name = line.slice(7);
      else if (line.indexOf('data: ') === 0) data += line.slice(6);
    });
    if (!data) return;
    var value = JSON.parse(data);
    if (name === 'hello') loadHistory(value);
    else if (name === 'request') {
      addRequest(value, true);
      // A request may have used a fault, opened a quota window, or brought the activity's arrivals.
      refreshWorld();
    }
    else if (name === 'skipped') {
      page.skipped += value.requests;
      noteRequests();
    } else if (name === 'world') refreshWorld();
    else if (name === 'tick') {
      showClock(value);
      refreshWorld();
    }
  }

  /** What came before the stream opened, from the journal: the newest the page holds. */
  function loadHistory(hello) {
    showClock(hello);
    var generation = page.generation;
    var since = Math.max(0, hello.lastSeq - MOST_REQUESTS);
    api('journal?since=' + since + '&limit=' + MOST_REQUESTS).then(function (answer) {
      if (generation !== page.generation) return;
      answer.data.forEach(function (entry) { addRequest(entry, false); });
      // Every request numbered up to since came before what the page shows (held by the journal, or dropped).
      page.earlier = since;
      noteRequests();
    });
  }

  // ---- requests ----

  function clearRequests(why) {
    page.requests = [];
    page.rows = new Map();
    page.dropped = 0;
    page.skipped = 0;
    page.earlier = 0;
    byId('request-list').replaceChildren();
    byId('requests-note').textContent = why;
  }

  function addRequest(entry, live) {
    var known = page.rows.get(entry.seq);
    if (known) {
      // The journal's copy came first; the live one has the answer.
      if (live) known.replaceWith(page.rows.set(entry.seq, requestRow(entry, live)).get(entry.seq));
      return;
    }
    var newest = page.requests.length ? page.requests[page.requests.length - 1].seq : 0;
    // A live request numbered below what the page holds: the journal was emptied (a reset, a clear).
    if (live && entry.seq <= newest) clearRequests('The journal was emptied (a reset, or a clear): the list starts again.');
    if (!live && page.requests.length >= MOST_REQUESTS && entry.seq < page.requests[0].seq) return;
    var row = requestRow(entry, live);
    var list = byId('request-list');
    var at = page.requests.length;
    while (at > 0 && page.requests[at - 1].seq > entry.seq) at--;
    page.requests.splice(at, 0, entry);
    page.rows.set(entry.seq, row);
    // Newest first on the page: the row goes before the row of the next older request.
    var older = at > 0 ? page.rows.get(page.requests[at - 1].seq) : null;
    list.insertBefore(row, older || null);
    while (page.requests.length > MOST_REQUESTS) {
      var oldest = page.requests.shift();
      page.rows.get(oldest.seq).remove();
      page.rows.delete(oldest.seq);
      page.dropped++;
    }
    noteRequests();
  }

  function noteRequests() {
    var parts = [];
    if (page.requests.length === 0) parts.push('No request yet: send one to ' + location.origin + '/v1/… with one of the mock’s keys.');
    var earlier = (page.earlier || 0) + page.dropped;
    if (earlier > 0) parts.push(earlier + ' older ' + (earlier === 1 ? 'request is' : 'requests are') + ' not shown: the page holds the newest ' + MOST_REQUESTS + ' (GET /__admin/journal reads them all).');
    if (page.skipped > 0) parts.push(page.skipped + ' live ' + (page.skipped === 1 ? 'request was' : 'requests were') + ' skipped while the page fell behind.');
    byId('requests-note').textContent = parts.join(' ');
  }

  function statusClass(code) { return 's' + (code === null ? 0 : Math.floor(code / 100)); }

  function query(entry) {
    var text = new URLSearchParams(entry.query || {}).toString();
    return text ? '?' + text : '';
  }

  function requestRow(entry, live) {
    var latency = live ? entry.durationMs + ' ms' : entry.latencyMs ? entry.latencyMs + ' ms' : '—';
    var path = el('span', { className: 'mono', title: entry.path + query(entry), text: entry.path + query(entry) });
    if (entry.unmatched) path.append(el('span', { className: 'tag', text: 'unmatched' }));
    var summary = el('summary', {}, [
      el('span', { className: 'row' }, [
        el('span', { className: 'mono', text: entry.method }),
        path,
        el('span', { className: statusClass(entry.status), text: entry.status === null ? 'none' : String(entry.status) }),
        el('span', { text: latency }),
        el('span', { text: entry.session || page.scope }),
        el('span', { text: entry.keyName || '—' })
      ])
    ]);
    var details = el('details', { 'data-seq': String(entry.seq) }, [summary]);
    details.addEventListener('toggle', function () {
      if (details.open && details.childElementCount === 1) details.append(requestDetail(entry, live));
    }, { once: false });
    return el('li', {}, [details]);
  }

  function json(value) { return JSON.stringify(value, null, 2); }

  function block(title, value) {
    return [el('h4', { text: title }), el('pre', { text: typeof value === 'string' ? value : json(value) })];
  }

  function requestDetail(entry, live) {
    var parts = [];
    if (entry.unmatched) {
      parts.push(el('div', { className: 'miss' }, [
        el('h4', { text: 'Near miss: why nothing matched (' + entry.unmatched.reason + ')' }),
        el('p', { text: entry.unmatched.detail })
      ]));
    }
    parts.push(el('p', { text: 'Arrived ' + entry.at + ' (mock time), request #' + entry.seq + ', ' + entry.outcome + '.' }));
    parts.push.apply(parts, block('Request headers', entry.headers));
    if (entry.body !== undefined) parts.push.apply(parts, block('Request body', entry.body));
    if (entry.fault) parts.push.apply(parts, block('Fault it met', entry.fault));
    if (!live) parts.push(el('p', { className: 'note', text: 'The answer’s headers and body are shown for requests made while the page is open (the journal keeps its status).' }));
    else if (entry.answer === null) parts.push(el('p', { text: 'No answer was written (the connection was dropped, or the client left).' }));
    else {
      parts.push.apply(parts, block('Answer headers', entry.answer.headers));
      var cut = entry.answer.length > entry.answer.body.length;
      var body = entry.answer.body;
      if (!cut) {
        try { body = json(JSON.parse(body)); } catch (ignored) { /* shown as it came */ }
      }
      parts.push.apply(parts, block(cut ? 'Answer body (its first ' + entry.answer.body.length + ' of ' + entry.answer.length + ' characters)' : 'Answer body', body));
    }
    return el('div', { className: 'detail' }, parts);
  }

  // ---- the world ----

  /** Reads the world again, at most once every half second. */
  function refreshWorld() {
    if (page.worldTimer !== null) return;
    page.worldTimer = setTimeout(function () {
      page.worldTimer = null;
      loadWorld();
    }, 300);
  }

  function loadWorld() {
    var generation = page.generation;
    var reads = [api(''), api('faults'), api('fault-rate'), api('quota')];
    Promise.all(reads).then(function (answers) {
      if (generation !== page.generation) return;
      var summary = answers[0];
      showClock({ now: summary.now, frozen: summary.clock === 'frozen' });
      showActivity(summary.activity);
      showFaults(answers[1].data, answers[2].data);
      showQuotas(answers[3].data);
      return loadChanges(summary.journals.changes, generation);
    }).catch(function (error) { status('Could not read the world: ' + error.message); });
    if (page.home === 'default') loadSessions().catch(function () { /* the next read tries again */ });
  }

  function showClock(clock) {
    page.clock = { nowMs: Date.parse(clock.now), frozen: clock.frozen, seenAt: Date.now() };
    drawClock();
    byId('clock-toggle').textContent = clock.frozen ? 'Resume' : 'Freeze';
  }

  function drawClock() {
    var clock = page.clock;
    if (!clock) return;
    var now = clock.frozen ? clock.nowMs : clock.nowMs + (Date.now() - clock.seenAt);
    byId('clock-now').textContent = new Date(now).toISOString().replace('.000Z', 'Z') + (clock.frozen ? ' (frozen)' : ' (running)');
  }
  setInterval(drawClock, 1000);

  Array.prototype.forEach.call(document.querySelectorAll('[data-advance]'), function (button) {
    button.addEventListener('click', function () {
      act('clock/advance', { ms: Number(button.getAttribute('data-advance')) }, 'clock-error').then(function (clock) { if (clock) showClock(clock); });
    });
  });
  byId('clock-toggle').addEventListener('click', function () {
    act(page.clock && page.clock.frozen ? 'clock/resume' : 'clock/freeze', {}, 'clock-error').then(function (clock) { if (clock) showClock(clock); });
  });

  /** A change through the admin API: its error shown beside its control, the world read again. */
  function act(path, body, errorId) {
    byId(errorId).textContent = '';
    return api(path, { method: 'POST', body: body }).then(function (answer) {
      refreshWorld();
      return answer;
    }, function (error) {
      byId(errorId).textContent = error.message;
      return null;
    });
  }

  var ACTIVITY_FIELDS = ['callsPerMinute', 'excusedShare', 'recordingsPerHour', 'deactivationsPerDay', 'callDeletionsPerHour'];

  /** Whether the activity's form holds changes not applied yet: the world read again leaves them alone. */
  var activityEdited = false;

  function showActivity(activity) {
    ACTIVITY_FIELDS.forEach(function (field) { byId(field).placeholder = String(DEFAULT_ACTIVITY[field]); });
    if (activityEdited) return;
    byId('activity-on').checked = activity !== false;
    ACTIVITY_FIELDS.forEach(function (field) {
      byId(field).value = activity === false ? '' : String(activity[field]);
    });
  }

  byId('activity-form').addEventListener('input', function () { activityEdited = true; });
  byId('activity-form').addEventListener('submit', function (event) {
    event.preventDefault();
    activityEdited = false;
    var body = false;
    if (byId('activity-on').checked) {
      body = {};
      ACTIVITY_FIELDS.forEach(function (field) {
        var value = byId(field).value;
        if (value !== '') body[field] = Number(value);
      });
    }
    act('activity', body, 'activity-error');
  });

  function faultText(fault) {
    var route = (fault.method || 'any method') + ' ' + (fault.path || (fault.pathPattern ? '/' + fault.pathPattern + '/' : 'any path'));
    var what = [];
    if (fault.status !== undefined) what.push(String(fault.status));
    if (fault.htmlPage) what.push('HTML page');
    if (fault.drop) what.push('drop');
    if (fault.delayMs) what.push('wait ' + fault.delayMs + ' ms');
    if (fault.malformedJson) what.push('malformed JSON');
    if (fault.cutAfterBytes !== undefined) what.push('cut after ' + fault.cutAfterBytes + ' bytes');
    if (fault.drip) what.push('drip');
    return route + ': ' + (what.join(', ') || 'headers') + (fault.remaining !== undefined ? ', ' + fault.remaining + ' more' : '');
  }

  function showFaults(armed, rates) {
    var list = byId('fault-list');
    list.replaceChildren.apply(list, armed.length
      ? armed.map(function (fault) { return el('li', { text: faultText(fault) }); })
      : [el('li', { className: 'note', text: 'No fault armed.' })]);
    var rules = rates === false ? [] : Array.isArray(rates) ? rates : [rates];
    byId('fault-rates').textContent = rules.length
      ? 'Fault rates: ' + rules.map(function (rule) {
        return Math.round(rule.rate * 1000) / 10 + ' % of ' + (rule.method || 'any method') + ' ' + (rule.path || (rule.pathPattern ? '/' + rule.pathPattern + '/' : 'any path')) + (rule.max !== undefined ? ' (at most ' + rule.max + ')' : '');
      }).join('; ')
      : 'No fault rate.';
  }

  byId('fault-form').addEventListener('submit', function (event) {
    event.preventDefault();
    var body = { path: byId('fault-path').value.trim(), times: Number(byId('fault-times').value || 1) };
    var method = byId('fault-method').value;
    if (method) body.method = method;
    if (byId('fault-status').value !== '') body.status = Number(byId('fault-status').value);
    act('faults', body, 'fault-error');
  });

  function showQuotas(quotas) {
    byId('quota-default').textContent = quotas.default === false
      ? 'Keys without their own quota: none.'
      : 'Keys without their own quota: ' + quotas.default.requests + ' requests per ' + quotas.default.perSeconds + ' s.';
    var list = byId('quota-windows');
    list.replaceChildren.apply(list, quotas.windows.length
      ? quotas.windows.map(function (open) {
        return el('li', { text: open.keyName + ': ' + open.requests + ' of ' + open.quota.requests + ' requests, window until ' + open.closesAt });
      })
      : [el('li', { className: 'note', text: 'No window open.' })]);
  }

  function loadChanges(stats, generation) {
    // The journal was emptied since the last read: start again.
    if (stats.lastSeq < page.changeSeq) {
      page.changeSeq = 0;
      page.changes = [];
      page.changesDropped = 0;
    }
    var since = Math.max(page.changeSeq, stats.lastSeq - MOST_CHANGES);
    page.changesDropped += Math.max(0, since - page.changeSeq);
    if (since >= stats.lastSeq) return drawChanges();
    return api('changes?since=' + since + '&limit=' + MOST_CHANGES).then(function (answer) {
      if (generation !== page.generation) return;
      page.changes = page.changes.concat(answer.data);
      if (page.changes.length > MOST_CHANGES) {
        page.changesDropped += page.changes.length - MOST_CHANGES;
        page.changes = page.changes.slice(-MOST_CHANGES);
      }
      page.changeSeq = page.changes.length ? page.changes[page.changes.length - 1].seq : since;
      drawChanges();
    });
  }

  function drawChanges() {
    var list = byId('change-list');
    list.replaceChildren.apply(list, page.changes.slice().reverse().map(function (change) {
      var fields = change.fields ? ' ' + Object.keys(change.fields).join(', ') : '';
      return el('li', { className: 'mono', text: change.at + ' ' + change.kind + ' ' + change.resource + ' ' + change.id + fields + ' (' + change.origin + ')' });
    }));
    byId('changes-note').textContent = (page.changes.length ? '' : 'No change yet. ') +
      (page.changesDropped > 0 ? page.changesDropped + ' older changes are not shown: the page holds the newest ' + MOST_CHANGES + '.' : '');
  }

  // ---- the state ----

  byId('download').addEventListener('click', function () {
    api('state').then(function (state) {
      var link = el('a', { download: 'mock-state-' + page.scope + '.json' });
      link.href = URL.createObjectURL(new Blob([JSON.stringify(state)], { type: 'application/json' }));
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(function () { URL.revokeObjectURL(link.href); }, 10000);
    }, function (error) { status('Could not download the state: ' + error.message); });
  });

  window.addEventListener('pagehide', stopStream);

  var kept = sessionStorage.getItem(TOKEN_KEY);
  if (kept) open(kept);
  else showTokenForm('');
})();
`;
