/**
 * The launch page's recorder, inlined into the page (no build step). It captures the screen
 * and the microphone, mixes their sound into one track, records WebM in 15-second slices
 * and uploads them in order through the SDK screen upload routes while recording goes on.
 * Plain ES2020 without template literals, since it lives in a TypeScript template string.
 */
export const LAUNCH_SCRIPT = String.raw`
(function () {
  var token = document.body.getAttribute('data-token');
  var $ = function (id) { return document.getElementById(id); };
  var say = function (text, kind) { var el = $('status'); el.textContent = text; el.className = 'status ' + (kind || ''); };
  var state = { recorder: null, streams: [], queue: [], part: 0, busy: false, failed: false, marked: false, recording: false, finishing: false, done: false, key: '', session: '' };

  function call(path, body, headers) {
    var h = Object.assign({ 'content-type': 'application/json' }, headers || {});
    return fetch(path, { method: 'POST', headers: h, body: JSON.stringify(body || {}) }).then(function (res) {
      return res.json().catch(function () { return {}; }).then(function (data) {
        if (!res.ok) throw new Error(data.error || ('The service answered ' + res.status));
        return data;
      });
    });
  }
  var wait = function (ms) { return new Promise(function (r) { setTimeout(r, ms); }); };

  function stopTracks() {
    state.streams.forEach(function (s) { s.getTracks().forEach(function (t) { t.stop(); }); });
  }

  function mimeType() {
    var types = ['video/webm;codecs=vp9,opus', 'video/webm;codecs=vp8,opus', 'video/webm'];
    for (var i = 0; i < types.length; i++) if (MediaRecorder.isTypeSupported(types[i])) return types[i];
    return '';
  }

  async function capture() {
    var screen = await navigator.mediaDevices.getDisplayMedia({ video: true, audio: true });
    state.streams.push(screen);
    var mic = null;
    try {
      mic = await navigator.mediaDevices.getUserMedia({ audio: true });
      state.streams.push(mic);
    } catch (e) {
      say('No microphone: the recording will have no voice. You can still go ahead.', 'warn');
    }
    var audio = new AudioContext();
    var mix = audio.createMediaStreamDestination();
    [screen, mic].forEach(function (s) { if (s && s.getAudioTracks().length) audio.createMediaStreamSource(s).connect(mix); });
    screen.getVideoTracks()[0].addEventListener('ended', function () { finish(); });
    return new MediaStream(screen.getVideoTracks().concat(mix.stream.getAudioTracks()));
  }

  async function uploadPart(blob, number) {
    for (var attempt = 1; ; attempt++) {
      var res = null;
      try {
        res = await fetch('/api/sdk/screen/upload-session/upload-part', {
          method: 'POST',
          headers: { 'content-type': 'application/octet-stream', 'x-project-key': state.key, 'x-session-id': state.session, 'x-part-number': String(number) },
          body: blob,
        });
      } catch (e) { /* network: retry */ }
      if (res && res.ok) return;
      if (res && res.status < 500 && res.status !== 429) {
        var data = await res.json().catch(function () { return {}; });
        throw new Error(data.error || ('The upload was refused (' + res.status + ')'));
      }
      if (attempt >= 6) throw new Error('The upload keeps failing; check your connection');
      await wait(1000 * Math.pow(2, attempt));
    }
  }

  async function pump() {
    if (state.busy || state.failed || !state.queue.length) return;
    state.busy = true;
    try {
      if (!state.marked) { await call('/api/recordings/' + token + '/uploading'); state.marked = true; }
      var blob = new Blob(state.queue.splice(0), { type: 'video/webm' });
      state.part += 1;
      await uploadPart(blob, state.part);
      if (state.recording) say('Recording… (' + state.part + ' part' + (state.part > 1 ? 's' : '') + ' uploaded)');
    } catch (e) {
      state.failed = true;
      state.recording = false;
      if (state.recorder && state.recorder.state !== 'inactive') state.recorder.stop();
      stopTracks();
      say('The recording could not be uploaded: ' + e.message, 'error');
    }
    state.busy = false;
    if (state.queue.length) pump();
  }

  async function start() {
    $('start').disabled = true;
    try {
      if (!navigator.mediaDevices || !navigator.mediaDevices.getDisplayMedia || !window.MediaRecorder) {
        throw new Error('This browser cannot record the screen. Please open the link in a recent Chrome, Edge or Firefox on a computer.');
      }
      var stream = await capture();
      var started = await call('/api/recordings/' + token + '/start');
      state.session = started.session_id;
      state.key = started.project_key;
      await call('/api/sdk/screen/upload-session/start', { session_id: state.session }, { 'x-project-key': state.key });
      var type = mimeType();
      state.recorder = new MediaRecorder(stream, type ? { mimeType: type } : undefined);
      state.recorder.addEventListener('dataavailable', function (e) { if (e.data && e.data.size) { state.queue.push(e.data); pump(); } });
      state.recorder.start(15000);
      state.recording = true;
      $('finish').hidden = false;
      $('start').hidden = true;
      say('Recording… follow the steps and talk us through what you do.');
    } catch (e) {
      stopTracks();
      state.streams = [];
      $('start').disabled = false;
      say(e.message || String(e), 'error');
    }
  }

  async function finish() {
    var recorder = state.recorder;
    if (!recorder || state.failed || state.finishing || state.done) return;
    state.finishing = true;
    $('finish').disabled = true;
    say('Finishing the upload… please keep this page open.');
    if (recorder.state !== 'inactive') {
      await new Promise(function (r) { recorder.addEventListener('stop', r, { once: true }); recorder.stop(); });
      stopTracks();
    }
    while ((state.busy || state.queue.length) && !state.failed) { pump(); await wait(200); }
    state.finishing = false;
    if (state.failed) return;
    try {
      await call('/api/recordings/' + token + '/complete');
      state.done = true;
      state.recording = false;
      $('finish').hidden = true;
      say('Thank you! Your recording has been sent. You can close this page.', 'done');
    } catch (e) {
      say('The recording could not be finished: ' + e.message + ' Press Finish to try again.', 'error');
      $('finish').disabled = false;
    }
  }

  $('start').addEventListener('click', start);
  $('finish').addEventListener('click', finish);
  window.addEventListener('beforeunload', function (e) { if (state.recording) { e.preventDefault(); e.returnValue = ''; } });
})();
`;
