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
