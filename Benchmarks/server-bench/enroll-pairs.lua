-- Enroll, then unenroll, in turn, one connection per thread, each thread on its own open
-- course (given on the command line), so every pair takes a real seat and frees it again.
-- Usage: wrk -t2 -c2 -s enroll-pairs.lua URL -- TOKEN COURSE1 COURSE2
local threads = {}

function setup(thread)
  table.insert(threads, thread)
  thread:set("index", #threads)
end

function init(args)
  token = args[1]
  course = args[1 + index]
  counter = 0
end

function request()
  counter = counter + 1
  local method = (counter % 2 == 1) and "PUT" or "DELETE"
  return wrk.format(method, "/v1/me/enrollments/" .. course, { ["Authorization"] = "Bearer " .. token })
end

function response(status, headers, body)
  if status >= 300 then
    refusals = (refusals or 0) + 1
    -- The first refusal of this thread, and which request of its turn it answered.
    if refusals == 1 then refusal = string.format("request %d (%s): %d %s", counter, (counter % 2 == 1) and "PUT" or "DELETE", status, (body or ""):sub(1, 200)) end
  end
end

function done(summary, latency, requests)
  for _, thread in ipairs(threads) do
    local refusal = thread:get("refusal")
    if refusal then io.write("refused: " .. refusal .. "\n") end
  end
end
