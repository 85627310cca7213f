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
  enrolled = false
end

-- The method follows the last answer, not a count of calls: with a count, one thread's first
-- refusal was its second request, a DELETE, answered 404 not_enrolled (the one non-2xx of the
-- runs that printed it), most likely because wrk calls request() again for a request it could
-- not write at once on a connection just opened.
function request()
  return wrk.format(enrolled and "DELETE" or "PUT", "/v1/me/enrollments/" .. course, { ["Authorization"] = "Bearer " .. token })
end

function response(status, headers, body)
  counter = counter + 1
  if status < 300 then
    enrolled = not enrolled
  else
    refusals = (refusals or 0) + 1
    -- The first refusal of this thread: which answer, to which method.
    if refusals == 1 then
      refusal = string.format("answer %d (%s): %d %s", counter, enrolled and "DELETE" or "PUT", status, (body or ""):sub(1, 200))
    end
  end
end

function done(summary, latency, requests)
  for _, thread in ipairs(threads) do
    local refusal = thread:get("refusal")
    if refusal then io.write("refused: " .. refusal .. "\n") end
  end
end
