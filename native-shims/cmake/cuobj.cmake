# cuobj provider plugin — filled in next
