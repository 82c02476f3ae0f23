-- The request driver of `make loadtest`: wrk runs it, one thread, against `carevault serve`.
--
-- wrk keeps one connection per virtual user and sends a connection's next request as soon as
-- its answer has arrived (a closed loop: the number of connections is the concurrency). For
-- each request wrk asks request() what to send; for each answer it calls response(). This
-- script decides what each request is (the run's plan, a Lua table written by
-- tools/loadtest/generator.py and named by the first argument after `--`), bounds the run,
-- and writes one line per answer to standard output for generator.py to read:
--
--   cv <kind> <status> <latency µs> <body bytes> [<note id> <version>]
--
-- kind m: a request of the workload; r: the GET that follows an autosave's 409, as the UI
-- does (apart, so the autosave's figures are the PATCH's own); u: an answer without the
-- X-Request-ID this script sent (requests and answers are paired by that id, which the
-- server echoes). Autosave lines end with the note and the newest version seen of it.
-- done() adds one `cv-run key=value ...` line: what was started and what was still in flight.
--
-- Bounds, as the Python generator had them: no request of the workload starts once
-- `budget` have started or `seconds` have passed since the first. A connection left with
-- nothing to send is parked (an empty request: wrk writes nothing and waits). When nothing
-- is in flight and nothing may start, the script stops wrk at once (SIGINT, like Ctrl+C);
-- otherwise wrk's own -d is the hard limit, and what is still in flight then is cut off.
--
-- Latency is timed here, from request() (wrk sends right after it) to response() (called as
-- the answer's last byte is parsed): the same span as wrk's own, but per kind of request,
-- and without wrk's coordinated-omission correction, which assumes an open loop.

local ffi = require("ffi")
ffi.cdef [[
typedef struct { long tv_sec; long tv_nsec; } cv_timespec;
int clock_gettime(int clock_id, cv_timespec *tp);
int kill(int pid, int sig);
int getpid(void);
]]
local CLOCK_MONOTONIC = 1
local SIGINT = 2
local timespec = ffi.new("cv_timespec")

local function now()
   ffi.C.clock_gettime(CLOCK_MONOTONIC, timespec)
   return tonumber(timespec.tv_sec) + tonumber(timespec.tv_nsec) * 1e-9
end

local plan           -- the run's plan (init)
local deadline       -- no request of the workload starts after it
local sequence = 0   -- numbers the X-Request-IDs
local inflight = {}  -- X-Request-ID -> { sent at, kind, note id or false }
local refetch = {}   -- notes to GET after a 409, first in first out
local refetch_head, refetch_tail = 1, 0
local verified = false
local versions = {}  -- autosave: note id -> the newest version seen
local note_paths = {}

-- Globals, so that done() can read them from this thread (thread:get copies scalars).
started = 0           -- requests of the workload started
completed = 0         -- ... and answered
refetches = 0         -- refetches started
in_flight = 0         -- requests of either kind in flight
main_in_flight = 0    -- requests of the workload in flight
peak_in_flight = 0
first_sent = 0        -- monotonic seconds
finished_at = 0       -- when the script stopped wrk itself (0: wrk's -d did)

function init(args)
   plan = dofile(args[1])
   math.randomseed(plan.seed)
   if plan.autosave then
      for _, note in ipairs(plan.autosave.notes) do
         versions[note.id] = note.version
         note_paths[note.id] = plan.api .. "/sessions/" .. note.id
      end
   end
end

local function finish(t)
   if finished_at == 0 then
      finished_at = t
      ffi.C.kill(ffi.C.getpid(), SIGINT) -- wrk's main thread sleeps for -d; this wakes it
      wrk.thread:stop()
   end
end

local function may_start(t)
   return started < plan.budget and t < deadline
end

local function done_yet(t)
   return in_flight == 0 and refetch_head > refetch_tail and not may_start(t)
end

local function send(kind, method, path, headers, body, note, t)
   sequence = sequence + 1
   -- 32 characters, as long as the ids the server makes for clients that send none (the UI):
   -- the id is stored in each audit event, whose size the report gives.
   local id = string.format("loadtest-%023d", sequence)
   inflight[id] = { t, kind, note or false }
   in_flight = in_flight + 1
   if in_flight > peak_in_flight then
      peak_in_flight = in_flight
   end
   headers["X-Request-ID"] = id
   return wrk.format(method, path, headers, body)
end

local function autosave_body(note, index)
   local mix = plan.autosave
   local section = mix.sections[index % #mix.sections + 1]
   local text = mix.texts[index % #mix.texts + 1] -- already a JSON string literal
   return '{"version":' .. versions[note] .. ',"' .. section .. '":' .. text .. '}'
end

local function next_request(t)
   local index = started
   started = started + 1
   main_in_flight = main_in_flight + 1
   if plan.autosave then
      local mix = plan.autosave
      local note = mix.notes[math.random(#mix.notes)].id
      return send("m", "PATCH", note_paths[note], mix.headers, autosave_body(note, index), note, t)
   end
   -- Virtual users take turns over the groups (practices); a random path within each.
   local group = plan.groups[index % #plan.groups + 1]
   return send("m", "GET", group.paths[math.random(#group.paths)], group.headers, nil, nil, t)
end

function request()
   if not verified then
      -- wrk calls request() once before the run to check what it returns: not sent.
      verified = true
      return wrk.format("GET", plan.api .. "/", {})
   end
   local t = now()
   if first_sent == 0 then
      first_sent = t
      deadline = t + plan.seconds
   end
   if refetch_head <= refetch_tail then
      local note = refetch[refetch_head]
      refetch[refetch_head] = nil
      refetch_head = refetch_head + 1
      refetches = refetches + 1
      return send("r", "GET", note_paths[note], plan.autosave.read_headers, nil, note, t)
   end
   if may_start(t) then
      return next_request(t)
   end
   if in_flight == 0 then
      finish(t)
   end
   return "" -- parked: nothing more to send on this connection
end

local function seen(note, body)
   local version = tonumber(string.match(body, '"version"%s*:%s*(%d+)'))
   if version and version > versions[note] then
      versions[note] = version
   end
end

function response(status, headers, body)
   local t = now()
   local id = headers["x-request-id"] or headers["X-Request-ID"]
   local entry = id and inflight[id]
   if not entry then
      io.write(string.format("cv u %d -1 %d\n", status, #body))
      return
   end
   inflight[id] = nil
   in_flight = in_flight - 1
   local sent, kind, note = entry[1], entry[2], entry[3]
   if kind == "m" then
      completed = completed + 1
      main_in_flight = main_in_flight - 1
   end
   local latency = math.floor((t - sent) * 1e6 + 0.5)
   if note then
      if status == 200 then
         seen(note, body)
      elseif status == 409 and kind == "m" then
         refetch_tail = refetch_tail + 1
         refetch[refetch_tail] = note
      end
      io.write(string.format("cv %s %d %d %d %s %d\n", kind, status, latency, #body, note,
         versions[note]))
   else
      io.write(string.format("cv %s %d %d %d\n", kind, status, latency, #body))
   end
   if done_yet(t) then
      finish(t)
   end
end

-- setup() and done() run in wrk's main Lua state, apart from the thread's.
local threads = {}

function setup(thread)
   table.insert(threads, thread)
end

function done(summary, latency, requests)
   local t = now()
   for _, thread in ipairs(threads) do
      local finished = thread:get("finished_at")
      local first = thread:get("first_sent")
      io.write(string.format(
         "cv-run started=%d completed=%d refetches=%d in_flight=%d main_in_flight=%d "
         .. "peak_in_flight=%d wall_us=%d finished_itself=%d\n",
         thread:get("started"), thread:get("completed"), thread:get("refetches"),
         thread:get("in_flight"), thread:get("main_in_flight"), thread:get("peak_in_flight"),
         first > 0 and math.floor(((finished > 0 and finished or t) - first) * 1e6) or 0,
         finished > 0 and 1 or 0))
   end
   local errors = summary.errors
   io.write(string.format("cv-wrk requests=%d connect=%d read=%d write=%d\n", summary.requests,
      errors.connect, errors.read, errors.write))
end
